/**
 * Guild state as the dispatcher needs it while it works through one page of the event log:
 * every read is cached for the page, so a hundred events of one guild read its roles once.
 * A new reader per page: the cache must not outlive the state it was read from.
 */
import type { GuildStoreReader, GuildView } from '../platform/guilds/access';
import type { ChannelRecord, GuildRecord, MemberRecord, RoleRecord } from '../store/records/core';
import type { PlatformStorage } from '../store/schema';
import type { ThreadMemberRecord } from '../store/records/threads';

/** A cached, read-only view of guilds, roles, channels and memberships. */
export class GuildReader implements GuildStoreReader {
  readonly #cache = new Map<string, Promise<unknown>>();

  constructor(private readonly db: PlatformStorage) {}

  #cached<T>(key: string, read: () => Promise<T>): Promise<T> {
    let hit = this.#cache.get(key) as Promise<T> | undefined;
    if (!hit) {
      hit = read();
      this.#cache.set(key, hit);
    }
    return hit;
  }

  /** A guild by id. */
  guild(id: string): Promise<GuildRecord | undefined> {
    return this.#cached(`g:${id}`, () => this.db.get('guilds', id));
  }

  /** Every role of a guild. */
  roles(guildId: string): Promise<RoleRecord[]> {
    return this.#cached(`r:${guildId}`, () => this.db.getAllFromIndex('roles', 'by_guild', guildId));
  }

  /** Every channel of a guild. */
  channels(guildId: string): Promise<ChannelRecord[]> {
    return this.#cached(`c:${guildId}`, () => this.db.getAllFromIndex('channels', 'by_guild', guildId));
  }

  /** A user's membership of a guild. */
  member(guildId: string, userId: string): Promise<MemberRecord | undefined> {
    return this.#cached(`m:${guildId}:${userId}`, () => this.db.get('members', [guildId, userId]));
  }

  /** A user's membership of a thread. */
  threadMember(threadId: string, userId: string): Promise<ThreadMemberRecord | undefined> {
    return this.#cached(`t:${threadId}:${userId}`, () => this.db.get('thread_members', [threadId, userId]));
  }

  /** The guild as `userId` sees it, or undefined when the guild is gone. */
  async view(guildId: string, userId: string): Promise<GuildView | undefined> {
    const [guild, roles, member] = await Promise.all([
      this.guild(guildId),
      this.roles(guildId),
      this.member(guildId, userId),
    ]);
    return guild ? { guild, roles, userId, member: member ?? null } : undefined;
  }
}

/**
 * Reading a guild's members for Request Guild Members: their users in few range reads, and all
 * members of a guild chunk by chunk, each chunk handed on as soon as it is read while the next
 * is already being read.
 */
import { GUILD_MEMBERS_CHUNK_MAX } from '../platform/core/limits';
import type { MemberRecord, UserRecord } from '../store/records/core';
import type { PresenceRecord } from '../store/records/presence';
import { keyRange } from '../store/port';
import type { ReadTx } from '../store/schema';

/** The stores a member request reads, in one transaction. */
export type MembersReadTx = ReadTx<'members' | 'users' | 'presences'>;

/** Users read per range when a request reads many: consecutive ids in key order. */
const USERS_PER_RANGE = 500;
/** A range read returns at most this many times as many users as it looks for. */
const RANGE_SPREAD = 4;

/** Whether `ids` are in ascending key order with no repeats, as a key range returns a guild's members. */
function ascending(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) if (!(ids[i - 1] < ids[i])) return false;
  return true;
}

/**
 * The user records of `ids` (in that order), read in `tx`. A few ids are read one by one; many
 * are sorted into runs of {@link USERS_PER_RANGE} and each run is one range read, so that all
 * members of a large guild cost a few hundred reads instead of one per member. A run whose
 * range holds many other users is read only up to {@link RANGE_SPREAD} times its size, and the
 * ids past that are read one by one.
 */
export async function usersOf(tx: MembersReadTx, ids: readonly string[]): Promise<(UserRecord | undefined)[]> {
  const users = tx.store('users');
  if (ids.length <= USERS_PER_RANGE) return Promise.all(ids.map((id) => users.get(id)));
  // The members of a key range come in key order already: sorting them again costs a copy.
  const sorted = ascending(ids) ? ids : [...new Set(ids)].sort();
  const found = new Map<string, UserRecord>();
  const runs: Promise<void>[] = [];
  for (let i = 0; i < sorted.length; i += USERS_PER_RANGE) {
    const run = sorted.slice(i, i + USERS_PER_RANGE);
    const cap = run.length * RANGE_SPREAD;
    runs.push(
      users.getAll(keyRange.bound(run[0], run[run.length - 1]), cap).then(async (records) => {
        for (const user of records) found.set(user.id, user);
        if (records.length < cap) return;
        const last = records[records.length - 1].id;
        const rest = run.filter((id) => id > last);
        for (const [k, user] of (await Promise.all(rest.map((id) => users.get(id)))).entries())
          if (user) found.set(rest[k], user);
      }),
    );
  }
  await Promise.all(runs);
  return ids.map((id) => found.get(id));
}

/** The presences of `ids` that are stored, by user id. */
export async function presencesOf(tx: MembersReadTx, ids: readonly string[]): Promise<Map<string, PresenceRecord>> {
  const presences = new Map<string, PresenceRecord>();
  for (const p of await Promise.all(ids.map((id) => tx.store('presences').get(id)))) if (p) presences.set(p.user_id, p);
  return presences;
}

/**
 * Members read per request after the first chunk: a multiple of the chunk size. Each read
 * waits for the one before it (it starts after that one's last member), so fewer, larger reads
 * mean fewer waits.
 */
const MEMBERS_PER_READ = 5 * GUILD_MEMBERS_CHUNK_MAX;

/** A member with its user. */
export interface FoundMember {
  member: MemberRecord;
  user: UserRecord;
}

/** One chunk of a guild's members as read: at most {@link GUILD_MEMBERS_CHUNK_MAX}. */
export interface MemberChunk {
  found: FoundMember[];
  /** The chunk's members' presences, when asked for. */
  presences?: Map<string, PresenceRecord>;
  index: number;
  count: number;
}

/**
 * Reads the first `limit` members of a guild (all of them for `Infinity`) in key order, in
 * chunks of {@link GUILD_MEMBERS_CHUNK_MAX}, all in one read transaction so that the chunks
 * agree with each other and with `count`. Each chunk is handed to `take` in order as soon as its
 * users are read; the next members ({@link MEMBERS_PER_READ} at a time after the first chunk)
 * are requested before that, so the store keeps reading while a chunk is being sent. `take` answers false to stop (nobody listens any more).
 * A member whose user is not found is left out of its chunk.
 */
export async function readMemberChunks(
  tx: MembersReadTx,
  guildId: string,
  options: { limit: number; presences: boolean },
  take: (chunk: MemberChunk) => boolean,
): Promise<void> {
  const store = tx.store('members');
  const after = (userId?: string) =>
    userId === undefined
      ? keyRange.bound([guildId], [guildId, []])
      : keyRange.bound([guildId, userId], [guildId, []], true);
  const firstSize = Math.min(GUILD_MEMBERS_CHUNK_MAX, options.limit);
  // Both requests at once: the count does not hold up the first chunk.
  const [stored, first] = await Promise.all([store.count(after()), store.getAll(after(), firstSize)]);
  const total = Math.min(stored, options.limit);
  const count = Math.max(1, Math.ceil(total / GUILD_MEMBERS_CHUNK_MAX));
  let members: Promise<MemberRecord[]> = Promise.resolve(first);
  let asked = first.length;
  let index = 0;
  let going = true;
  let taken: Promise<void> = Promise.resolve();
  try {
    while (index < count && going) {
      const records = await members;
      if (records.length === 0) break;
      // Asked for before these members' users: the store reads on while their chunks are sent.
      if (asked < total && going) {
        const size = Math.min(MEMBERS_PER_READ, total - asked);
        members = store.getAll(after(records[records.length - 1].user_id), size);
        asked += size;
      }
      for (let at = 0; at < records.length && index < count; at += GUILD_MEMBERS_CHUNK_MAX, index++) {
        const part = records.slice(at, at + GUILD_MEMBERS_CHUNK_MAX);
        const ids = part.map((m) => m.user_id);
        const read = Promise.all([usersOf(tx, ids), options.presences ? presencesOf(tx, ids) : undefined]);
        const chunkIndex = index;
        taken = Promise.all([taken, read]).then(([, [users, presences]]) => {
          if (!going) return;
          const found = part.flatMap((member, i) => (users[i] ? [{ member, user: users[i]! }] : []));
          going = take({ found, presences, index: chunkIndex, count });
        });
      }
    }
  } finally {
    await taken;
  }
}

/**
 * Sends dispatches in order as they are produced, without waiting for each send: those produced
 * while a send is under way go together in the next one.
 */
export class ChunkSender<T> {
  #waiting: T[] = [];
  #running: Promise<void> | null = null;
  #failure: unknown = null;

  constructor(private readonly send: (items: T[]) => Promise<void>) {}

  /** Whether a send failed: nothing more is sent. */
  get failed(): boolean {
    return this.#failure !== null;
  }

  /** Queues `item`; it is sent with the next send. */
  push(item: T): void {
    this.#waiting.push(item);
    this.#running ??= this.#drain();
  }

  /** Resolves once everything pushed is sent; rejects with a send's failure. */
  async done(): Promise<void> {
    await this.#running;
    if (this.#failure !== null) throw this.#failure;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0 && this.#failure === null) {
        const items = this.#waiting;
        this.#waiting = [];
        await this.send(items);
      }
    } catch (error) {
      this.#failure = error;
    } finally {
      this.#running = null;
    }
  }
}

/**
 * One lobby being changed inside a write: adds, updates and removes members under the
 * platform's limits, emits one event per change with the members of that moment as its
 * audience, and saves the lobby (member count, idle deadline) at the end.
 */
import type { Emit, WriteTx } from '../../store/write';
import { ApiError } from '../core/errors';
import { LOBBIES_PER_USER_MAX, LOBBY_MEMBERS_MAX } from '../core/limits';
import type { LobbyMemberRecord, LobbyRecord, Metadata } from '../../store/records/core';
import type { LobbyMemberInput } from './schemas';
import { lobbyAudience, loadLobbyMembers, serializeLobby, serializeLobbyMember, settleIdleDeadline } from './store';

/** What to do with a user who is already in the most lobbies of this application. */
export type LobbyCapPolicy = 'refuse' | 'drop';

/** One entry per user: when a list names a user twice, the last entry wins (in the first one's place). */
export function lastEntryPerUser<T extends { id: string }>(entries: readonly T[]): T[] {
  return [...new Map(entries.map((e) => [e.id, e])).values()];
}

const sameMetadata = (a: Metadata | null, b: Metadata | null): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Changes one lobby inside a write transaction.
 * @example
 * const editor = await LobbyEditor.open(tx, emit, lobby, now);
 * await editor.upsert({ id: userId, metadata: { team: 'red' } }, 'refuse');
 * await editor.save();
 */
export class LobbyEditor {
  #dirty = false;

  private constructor(
    private readonly tx: WriteTx,
    private readonly emit: Emit,
    readonly lobby: LobbyRecord,
    readonly members: Map<string, LobbyMemberRecord>,
    private readonly now: number,
    /** While a lobby is being created its members arrive with LOBBY_CREATE, not one event each. */
    private readonly creating: boolean,
  ) {}

  /** An editor over a stored lobby and its members. */
  static async open(tx: WriteTx, emit: Emit, lobby: LobbyRecord, now: number): Promise<LobbyEditor> {
    return new LobbyEditor(tx, emit, { ...lobby }, await loadLobbyMembers(tx, lobby.id), now, false);
  }

  /** An editor over a lobby that is being created; {@link save} stores it and emits LOBBY_CREATE. */
  static create(tx: WriteTx, emit: Emit, lobby: LobbyRecord, now: number): LobbyEditor {
    const editor = new LobbyEditor(tx, emit, { ...lobby }, new Map(), now, true);
    editor.#dirty = true;
    return editor;
  }

  /** The lobby object as it stands. */
  toJSON() {
    return serializeLobby(this.lobby, this.members.values());
  }

  /**
   * Adds a member, or updates an existing one (`metadata` / `flags` left out keep their values).
   * Unknown users are 404 10013; a full lobby is 400 30059; a user already in the most lobbies
   * of the application is refused (30060) or, with `drop`, left out: resolves to null.
   */
  async upsert(input: LobbyMemberInput, onUserCap: LobbyCapPolicy): Promise<LobbyMemberRecord | null> {
    const existing = this.members.get(input.id);
    if (existing) {
      const next: LobbyMemberRecord = {
        ...existing,
        metadata: input.metadata === undefined ? existing.metadata : input.metadata,
        flags: input.flags ?? existing.flags,
      };
      if (next.flags === existing.flags && sameMetadata(next.metadata, existing.metadata)) return existing;
      await this.tx.store('lobby_members').put(next);
      this.members.set(next.user_id, next);
      this.emitMember('LOBBY_MEMBER_UPDATE', next);
      return next;
    }
    const user = await this.tx.store('users').get(input.id);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    const held = await this.tx
      .store('lobby_members')
      .index('by_user_application')
      .count([input.id, this.lobby.application_id]);
    if (held >= LOBBIES_PER_USER_MAX) {
      if (onUserCap === 'drop') return null;
      throw ApiError.of('LOBBIES_PER_USER_MAX');
    }
    if (this.lobby.member_count >= LOBBY_MEMBERS_MAX) throw ApiError.of('LOBBY_MEMBERS_MAX');
    const member: LobbyMemberRecord = {
      lobby_id: this.lobby.id,
      user_id: input.id,
      application_id: this.lobby.application_id,
      metadata: input.metadata ?? null,
      flags: input.flags ?? 0,
      joined_at: this.now,
    };
    await this.tx.store('lobby_members').add(member);
    this.members.set(member.user_id, member);
    this.lobby.member_count += 1;
    this.#dirty = true;
    this.emitMember('LOBBY_MEMBER_ADD', member);
    return member;
  }

  /** Removes a member; false when the user was not one (which is not an error). */
  async remove(userId: string): Promise<boolean> {
    const member = this.members.get(userId);
    if (!member) return false;
    await this.tx.store('lobby_members').delete([this.lobby.id, userId]);
    // The removed member hears of its own removal: the audience is taken before it leaves.
    const audience = [...this.members.keys()];
    this.members.delete(userId);
    this.lobby.member_count -= 1;
    this.#dirty = true;
    if (!this.creating) {
      this.emit({
        type: 'LOBBY_MEMBER_REMOVE',
        data: { lobby_id: this.lobby.id, member: serializeLobbyMember(member) },
        audience: lobbyAudience(this.lobby, audience),
      });
    }
    return true;
  }

  /**
   * Changes the lobby's own settings and emits LOBBY_UPDATE when something changed. A new idle
   * timeout moves the deadline of an empty lobby too: it counts from when the lobby became empty.
   */
  update(changes: { metadata?: Metadata | null; idle_timeout_seconds?: number; flags?: number | null }): boolean {
    const lobby = this.lobby;
    let changed = false;
    if (changes.flags !== undefined && (changes.flags ?? 0) !== (lobby.flags ?? 0)) {
      lobby.flags = changes.flags ?? 0;
      changed = true;
    }
    if (changes.metadata !== undefined && !sameMetadata(changes.metadata, lobby.metadata)) {
      lobby.metadata = changes.metadata;
      changed = true;
    }
    if (changes.idle_timeout_seconds !== undefined && changes.idle_timeout_seconds !== lobby.idle_timeout_seconds) {
      if (lobby.idle_deadline !== null)
        lobby.idle_deadline += (changes.idle_timeout_seconds - lobby.idle_timeout_seconds) * 1000;
      lobby.idle_timeout_seconds = changes.idle_timeout_seconds;
      changed = true;
    }
    if (changed) {
      this.#dirty = true;
      if (!this.creating)
        this.emit({ type: 'LOBBY_UPDATE', data: this.toJSON(), audience: lobbyAudience(lobby, this.members.keys()) });
    }
    return changed;
  }

  /** Stores the lobby if it changed (with its idle deadline settled); emits LOBBY_CREATE for a new one. */
  async save(): Promise<void> {
    if (!this.#dirty) return;
    this.lobby.idle_deadline = settleIdleDeadline(this.lobby, this.now);
    await this.tx.store('lobbies').put(this.lobby);
    if (this.creating)
      this.emit({
        type: 'LOBBY_CREATE',
        data: this.toJSON(),
        audience: lobbyAudience(this.lobby, this.members.keys()),
      });
    this.#dirty = false;
  }

  private emitMember(type: 'LOBBY_MEMBER_ADD' | 'LOBBY_MEMBER_UPDATE', member: LobbyMemberRecord): void {
    if (this.creating) return;
    this.emit({
      type,
      data: { lobby_id: this.lobby.id, member: serializeLobbyMember(member) },
      audience: lobbyAudience(this.lobby, this.members.keys()),
    });
  }
}

/**
 * Lobbies in the store: key ranges, the wire forms, who may touch a lobby, and the removal of
 * lobbies that stayed empty past their idle timeout. The helpers run inside a caller's
 * transaction, so a change and the events it emits commit together; `writeLobbies` opens that
 * transaction for the lobby operations.
 */
import type { PlatformDB } from '../../store/schema';
import type { Emit, WriteTx } from '../../store/write';
import { write } from '../../store/write';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { LOBBY_SECRET_TTL_MS } from '../core/limits';
import type { Lobby, LobbyMember, LobbyMemberRecord, LobbyRecord } from '../../store/records/core';
import { snowflakeKey } from '../core/snowflake';
import { keyRange, type KeyRange } from '../../store/port';
import { type PlatformStoreName, type ReadTx } from '../../store/schema';

/** Every store a lobby write touches (the event log is added by `write`). */
export const LOBBY_WRITE_STORES: PlatformStoreName[] = ['users', 'lobbies', 'lobby_members', 'lobby_messages'];

/** A transaction over the lobby stores, read-only or read-write. */
export type LobbyTx = ReadTx;

const MAX_U64 = (1n << 64n) - 1n;

/**
 * The `order_key` of a lobby message: 2^64-1 minus its id, padded to 20 digits, so that the
 * ascending key order of `[lobby_id, order_key]` is newest first and "the newest N" is one
 * bounded `getAll(range, N)` whatever the lobby holds.
 * @example lobbyMessageOrderKey('1') // '18446744073709551614'
 */
export function lobbyMessageOrderKey(id: string): string {
  return (MAX_U64 - BigInt(id)).toString().padStart(20, '0');
}

/** Every key of one lobby in a store keyed `[lobby_id, string]` (members, messages). */
export function lobbyKeyRange(lobbyId: string): KeyRange {
  return keyRange.bound([lobbyId, ''], [lobbyId, '\uffff']);
}

/** False once an empty lobby has passed its idle deadline: it is gone, even before the sweep. */
export function isLobbyLive(lobby: LobbyRecord, now: number): boolean {
  return lobby.idle_deadline === null || lobby.idle_deadline > now;
}

/** False once the join secret is older than {@link LOBBY_SECRET_TTL_MS}: it no longer joins. */
export function isSecretLive(lobby: LobbyRecord, now: number): boolean {
  return now < lobby.created_at + LOBBY_SECRET_TTL_MS;
}

/**
 * The lobby's idle deadline after a change: none while it has members or a linked channel
 * (linked lobbies are never removed for idleness); when it has just become empty, its idle
 * timeout from now; an existing deadline is kept.
 */
export function settleIdleDeadline(lobby: LobbyRecord, now: number): number | null {
  if (lobby.member_count > 0 || lobby.linked_channel_id !== null) return null;
  return lobby.idle_deadline ?? now + lobby.idle_timeout_seconds * 1000;
}

/** A lobby member on the wire. */
export function serializeLobbyMember(member: LobbyMemberRecord): LobbyMember {
  return { id: member.user_id, metadata: member.metadata, flags: member.flags };
}

/** The lobby object: members in the order they joined. */
export function serializeLobby(lobby: LobbyRecord, members: Iterable<LobbyMemberRecord>): Lobby {
  const sorted = [...members].sort(
    (a, b) => a.joined_at - b.joined_at || (snowflakeKey(a.user_id) < snowflakeKey(b.user_id) ? -1 : 1),
  );
  return {
    id: lobby.id,
    application_id: lobby.application_id,
    metadata: lobby.metadata,
    members: sorted.map(serializeLobbyMember),
    flags: lobby.flags ?? 0,
  };
}

/** Who hears of a lobby event: its members (including one just removed) and its application. */
export function lobbyAudience(lobby: LobbyRecord, userIds: Iterable<string>) {
  return { user_ids: [...new Set(userIds)], application_id: lobby.application_id };
}

/** Every member of a lobby by user id. */
export async function loadLobbyMembers(tx: LobbyTx, lobbyId: string): Promise<Map<string, LobbyMemberRecord>> {
  const records = await tx.store('lobby_members').getAll(lobbyKeyRange(lobbyId));
  return new Map(records.map((m) => [m.user_id, m]));
}

/**
 * The live lobby `lobbyId` as `principal` may address it: a lobby that does not exist, is past
 * its idle deadline or belongs to another application is 404 10031 (other applications'
 * lobbies are not revealed).
 */
export async function findLobby(tx: LobbyTx, principal: Principal, lobbyId: string, now: number): Promise<LobbyRecord> {
  return addressableLobby(await tx.store('lobbies').get(lobbyId), principal, now);
}

/**
 * `lobby` (as read) if `principal` may address it at `now`, else 404 10031 (see {@link findLobby}).
 */
export function addressableLobby(lobby: LobbyRecord | undefined, principal: Principal, now: number): LobbyRecord {
  if (!lobby || !isLobbyLive(lobby, now) || lobby.application_id !== principal.application.id)
    throw ApiError.of('UNKNOWN_LOBBY');
  return lobby;
}

/**
 * Throws 403 50001 unless `principal` may act in `lobby`: the bot of its application, or a
 * user who is a member. Resolves to the caller's membership (null for the bot).
 */
export async function requireLobbyAccess(
  tx: LobbyTx,
  principal: Principal,
  lobby: LobbyRecord,
): Promise<LobbyMemberRecord | null> {
  if (principal.kind === 'bot') return null;
  const member = await tx.store('lobby_members').get([lobby.id, principal.user.id]);
  if (!member) throw ApiError.of('MISSING_ACCESS');
  return member;
}

/** Removes a lobby with its members and messages, and emits LOBBY_DELETE to its members. */
export async function destroyLobby(tx: WriteTx, emit: Emit, lobby: LobbyRecord): Promise<void> {
  const members = await loadLobbyMembers(tx, lobby.id);
  const range = lobbyKeyRange(lobby.id);
  await Promise.all([
    tx.store('lobby_messages').delete(range),
    tx.store('lobby_members').delete(range),
    tx.store('lobbies').delete(lobby.id),
  ]);
  emit({
    type: 'LOBBY_DELETE',
    data: serializeLobby(lobby, members.values()),
    audience: lobbyAudience(lobby, members.keys()),
  });
}

/**
 * Inside a write: removes every lobby whose idle deadline is at or before `now` (one range
 * query on `by_idle_deadline`, which holds only empty lobbies). Resolves to their ids.
 */
export async function sweepIdleLobbies(tx: WriteTx, emit: Emit, now: number): Promise<string[]> {
  const expired = await tx.store('lobbies').index('by_idle_deadline').getAll(keyRange.upperBound(now));
  for (const lobby of expired) await destroyLobby(tx, emit, lobby);
  return expired.map((l) => l.id);
}

/**
 * Runs `body` in one lobby write (see `write`), after removing the lobbies past their idle
 * deadline in the same transaction, so a request never sees them (if the request fails, the
 * sweep is undone with it and simply runs again next time).
 */
export function writeLobbies<T>(
  ctx: PlatformContext,
  body: (tx: WriteTx, emit: Emit, now: number) => Promise<T>,
): Promise<T> {
  return write(ctx, LOBBY_WRITE_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    await sweepIdleLobbies(tx, emit, now);
    return body(tx, emit, now);
  });
}

/** A read-only transaction over the lobby stores and users. */
export function readLobbies(ctx: PlatformContext): LobbyTx {
  return ctx.db.read(LOBBY_WRITE_STORES);
}

/**
 * Removes the lobbies that stayed empty past their idle timeout, judged by the platform clock,
 * with a LOBBY_DELETE each. Cheap when there are none: one index count. Lobby reads run it
 * first; lobby writes sweep inside their own transaction.
 * @example await removeIdleLobbies(ctx); // after `PUT /sandbox/clock` moved past a deadline
 */
export async function removeIdleLobbies(ctx: PlatformContext): Promise<string[]> {
  const now = ctx.clock.now();
  const due = await ctx.db.countFromIndex('lobbies', 'by_idle_deadline', keyRange.upperBound(now));
  if (due === 0) return [];
  return write(ctx, LOBBY_WRITE_STORES, (tx, emit) => sweepIdleLobbies(tx, emit, now));
}

/**
 * What `POST /lobbies/{id}/messages` reads before it writes (whether a lobby is past its idle
 * deadline, the lobby, who its members are), taken from the service worker's read cache
 * (`core/read-cache.ts`) when it holds them, so that the POST's transaction makes only the
 * requests that write.
 *
 * When the cache may answer for a write: a value read from the cache stands for the store as of
 * the moment the POST's transaction is ordered, which is when `write` is called. So the POST
 * takes them in the same synchronous run as it calls `write`, and only when no write of this
 * context that may change `lobbies` or `lobby_members` has begun and not finished
 * (`PlatformStorage.isWriting`; a POST that does not sweep only reads them, so concurrent POSTs
 * do not hold each other back). Then every earlier write of this context that changed them has
 * committed and the cache has applied it (the commit listeners run before a write finishes),
 * and every later one is ordered after the POST (both engines order writes over common stores
 * as they are begun). While one is in flight (a member removal, a lobby deletion, a reset), the
 * POST reads inside its transaction, as the engine orders it.
 *
 * Other contexts: the shared worker never writes these stores (its gateway keeps sessions,
 * resume points, presences and voice states). Another start of the service worker may: a newer
 * one begins with an empty cache and reads in transactions the engine orders after every older
 * start's; an older start serves no new request once a newer one does, and a stopped one writes
 * nothing. What remains is an older start's POST already in flight while a newer start changes
 * the same lobby, before the newer one's announcement has made {@link ReadCache.forget} drop the
 * entries here (as for reads): the POST then acts as if it came first, which two requests in
 * flight at once allow; its message may outlive a lobby deleted meanwhile, unreachable (every
 * read and write finds the lobby first, and lobby ids are never reused).
 */
import type { LobbyRecord } from '../../store/records/core';
import type { PlatformStoreName, WriteTx } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ENTRY_OVERHEAD_BYTES, type Keepable } from '../core/read-cache';
import { IDLE_DEADLINE_KEY, type IdleDeadline, idleDeadlineEntry, MEMBERSHIP_BYTES } from './lobby-read-cache';
import { lobbyKeyRange } from './store';

/** The stores whose records a lobby message write reads. */
export const LOBBY_ACCESS_STORES: PlatformStoreName[] = ['lobbies', 'lobby_members'];

/** The stores a lobby message write that does not sweep only reads, never changes. */
export const LOBBY_ACCESS_READS: PlatformStoreName[] = ['users', ...LOBBY_ACCESS_STORES];

/** A lobby and the user ids of its members, as of one snapshot. */
export interface LobbyAudience {
  /** Undefined when there is no such lobby. */
  lobby: LobbyRecord | undefined;
  memberIds: ReadonlySet<string>;
}

/** What a lobby write knows before its transaction, from the cache. */
export interface KnownLobbyWrite {
  /** The cache generation taken with it: what the write reads may be kept if nothing changed since. */
  generation: number;
  /** True when the cache may answer (there is one, and no write that may change the lobby stores is in flight). */
  answers: boolean;
  /** True when no lobby is past its idle deadline at `now`: the sweep would remove nothing. */
  noneIdle: boolean;
  /** The lobby and its members, when the cache holds them. */
  audience: LobbyAudience | undefined;
}

/** The cache key of a lobby's record and member ids. */
export function lobbyAudienceKey(lobbyId: string): string {
  return `lobby-audience:${lobbyId}`;
}

/** The cache entry of lobby `lobbyId` and its members: any change to the lobby or its members drops it. */
export function lobbyAudienceEntry(lobbyId: string, audience: LobbyAudience): Keepable<LobbyAudience> {
  return {
    value: audience,
    bytes: ENTRY_OVERHEAD_BYTES + audience.memberIds.size * MEMBERSHIP_BYTES,
    dependencies: [
      { store: 'lobbies', key: lobbyId },
      { store: 'lobby_members', key: [lobbyId], prefix: true },
    ],
  };
}

/**
 * What the cache knows for a write of lobby `lobbyId` at `now` (nothing when there is no cache
 * or a write of this context over the lobby stores is in flight). Call it in the same
 * synchronous run as the `write` it is for.
 */
export function knownLobbyWrite(ctx: PlatformContext, lobbyId: string, now: number): KnownLobbyWrite {
  const cache = ctx.cache;
  if (!cache || ctx.db.isWriting(LOBBY_ACCESS_STORES)) {
    return { generation: cache?.generation ?? 0, answers: false, noneIdle: false, audience: undefined };
  }
  const idle = cache.get<IdleDeadline>(IDLE_DEADLINE_KEY);
  return {
    generation: cache.generation,
    answers: true,
    noneIdle: idle !== undefined && idle.at > now,
    audience: cache.get<LobbyAudience>(lobbyAudienceKey(lobbyId)),
  };
}

/** The lobby and its member ids, read inside `tx` (two requests at once). */
export async function readLobbyAudience(tx: WriteTx, lobbyId: string): Promise<LobbyAudience> {
  const [lobby, keys] = await Promise.all([
    tx.store('lobbies').get(lobbyId),
    tx.store('lobby_members').getAllKeys(lobbyKeyRange(lobbyId)),
  ]);
  return { lobby, memberIds: new Set(keys.map(([, userId]) => userId)) };
}

/**
 * The earliest idle deadline after `now`, read inside `tx` beside a sweep that removes the ones
 * at or before it (Infinity when none).
 */
export async function nextIdleDeadline(tx: WriteTx, now: number): Promise<number> {
  const [first] = await tx.store('lobbies').index('by_idle_deadline').getAll({ lower: now, lowerOpen: true }, 1);
  return first?.idle_deadline ?? Infinity;
}

/**
 * After a committed lobby write: keeps what it read for the next one, unless a commit changed
 * the lobby stores since `known.generation` (then it may be older than that commit).
 */
export function keepLobbyWriteReads(
  ctx: PlatformContext,
  lobbyId: string,
  known: KnownLobbyWrite,
  read: { audience?: LobbyAudience; idleDeadline?: number },
): void {
  const cache = ctx.cache;
  if (!cache) return;
  if (read.audience?.lobby)
    cache.keep(lobbyAudienceKey(lobbyId), known.generation, lobbyAudienceEntry(lobbyId, read.audience));
  if (read.idleDeadline !== undefined)
    cache.keep(IDLE_DEADLINE_KEY, known.generation, idleDeadlineEntry(read.idleDeadline));
}

/**
 * The read path of `GET /lobbies/{id}/messages`, built to cost little more than answering from
 * memory: the lobby, the caller's membership, the earliest idle deadline and the newest messages
 * are read in one read-only transaction with the requests issued together, each message is
 * serialized once, and where the read cache is on (the service worker) the next read of the
 * lobby answers from memory. The cached lobby follows the writes: a new message of the lobby
 * joins it (its author's user record is known to the cache), any other change to the lobby, its
 * members or its authors drops it, and writes elsewhere leave it alone (`lobby-read-cache.ts`).
 */
import { LOBBY_MESSAGES_DEFAULT, LOBBY_MESSAGES_MAX } from '../core/limits';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { newestLobbyMessages } from './messages';
import { serializeLobbyMessage } from './message-wire';
import { isLobbyLive, readLobbies, removeIdleLobbies } from './store';
import {
  IDLE_DEADLINE_KEY,
  idleDeadlineEntry,
  lobbyEntry,
  lobbyEntryKey,
  MEMBERSHIP_BYTES,
  type IdleDeadline,
  type LobbyReadEntry,
} from './lobby-read-cache';

/** The lobby entry and the earliest idle deadline, read in one transaction. */
async function loadLobby(
  ctx: PlatformContext,
  lobbyId: string,
  userId: string | null,
): Promise<{ entry: LobbyReadEntry | null; idleDeadline: number }> {
  const tx = readLobbies(ctx);
  const lobbies = tx.store('lobbies');
  const [lobby, member, earliestIdle, records] = await Promise.all([
    lobbies.get(lobbyId),
    userId === null ? undefined : tx.store('lobby_members').get([lobbyId, userId]),
    // Only empty lobbies are in this index: its first record has the earliest deadline.
    lobbies.index('by_idle_deadline').getAll(undefined, 1),
    newestLobbyMessages(tx, lobbyId, LOBBY_MESSAGES_MAX),
  ]);
  const idleDeadline = earliestIdle[0]?.idle_deadline ?? Infinity;
  if (!lobby) return { entry: null, idleDeadline };
  const authorIds = [...new Set(records.map((m) => m.author_id))];
  const authors = new Map(
    (await Promise.all(authorIds.map((id) => tx.store('users').get(id)))).map((user, i) => [authorIds[i], user]),
  );
  const members = new Map<string, boolean>();
  if (userId !== null) members.set(userId, member !== undefined);
  const messages = records.map((m) => JSON.stringify(serializeLobbyMessage(m, authors.get(m.author_id))));
  const orderKeys = records.map((m) => m.order_key);
  return {
    entry: { lobby, members, messages, orderKeys, authors, complete: records.length < LOBBY_MESSAGES_MAX },
    idleDeadline,
  };
}

/** Whether `userId` is a member, read on its own (the lobby is cached, this user was not asked about). */
async function loadMembership(ctx: PlatformContext, lobbyId: string, userId: string): Promise<boolean> {
  return (await readLobbies(ctx).store('lobby_members').get([lobbyId, userId])) !== undefined;
}

/**
 * The lobby as of now, after removing every lobby past its idle deadline (as the old read did
 * first): from the cache when it holds the lobby, else from the store.
 */
async function lobbyAsOfNow(
  ctx: PlatformContext,
  lobbyId: string,
  userId: string | null,
): Promise<LobbyReadEntry | null> {
  const cache = ctx.cache;
  const key = lobbyEntryKey(lobbyId);
  for (;;) {
    const now = ctx.clock.now();
    const cachedIdle = cache?.get<IdleDeadline>(IDLE_DEADLINE_KEY);
    const cached = cache?.get<LobbyReadEntry>(key);
    if (cached && cachedIdle && cachedIdle.at > now) {
      if (userId === null || cached.members.has(userId)) return cached;
      const generation = cache!.generation;
      const member = await loadMembership(ctx, lobbyId, userId);
      // A write since then may have changed the lobby too: only an unchanged cache answers.
      if (cache!.unchangedSince(['lobbies', 'lobby_members'], generation) && cache!.get(key) === cached) {
        cached.members.set(userId, member);
        cache!.grow(key, MEMBERSHIP_BYTES);
        return cached;
      }
      continue;
    }
    const generation = cache?.generation ?? 0;
    const { entry, idleDeadline } = await loadLobby(ctx, lobbyId, userId);
    if (idleDeadline <= now) {
      // Lobbies past their deadline go first, with their LOBBY_DELETE; then read again.
      await removeIdleLobbies(ctx);
      continue;
    }
    if (cache) {
      cache.keep(IDLE_DEADLINE_KEY, generation, idleDeadlineEntry(idleDeadline));
      if (entry) cache.keep(key, generation, lobbyEntry(lobbyId, entry, cache));
    }
    return entry;
  }
}

/**
 * `GET /lobbies/{id}/messages?limit=` as the JSON text of the answer: up to 200 (default 50)
 * most recent messages, newest first, however old, for a member of the lobby or the bot of its
 * application. A lobby that does not exist, is past its idle deadline or belongs to another
 * application is 404 10031; a user who is not a member gets 403 50001. The 72-hour window of
 * the SDK's `GetLobbyMessagesWithLimit` is the SDK's own (`src/sdk/client-social.ts`): the
 * route's public reference has none.
 * @example const body = await lobbyMessagesJson(ctx, principal, lobbyId, 200);
 */
export async function lobbyMessagesJson(
  ctx: PlatformContext,
  principal: Principal,
  lobbyId: string,
  limit = LOBBY_MESSAGES_DEFAULT,
): Promise<string> {
  const userId = principal.kind === 'bearer' ? principal.user.id : null;
  const entry = await lobbyAsOfNow(ctx, lobbyId, userId);
  if (!entry || !isLobbyLive(entry.lobby, ctx.clock.now()) || entry.lobby.application_id !== principal.application.id)
    throw ApiError.of('UNKNOWN_LOBBY');
  if (userId !== null && !entry.members.get(userId)) throw ApiError.of('MISSING_ACCESS');
  const count = Math.min(Math.max(1, limit), LOBBY_MESSAGES_MAX);
  return `[${entry.messages.slice(0, count).join(',')}]`;
}

/**
 * Lobby text chat: members (and the application's bot) send messages and read the newest ones.
 * Messages are keyed `[lobby_id, order_key]` with `order_key` sorting newest first, so the
 * newest N are one bounded `getAll`: at 100,000 messages they cost what they cost at 1,000.
 * `GET /lobbies/{id}/messages` reads through `lobbies/message-reads.ts`.
 */
import type { StoredLobbyMessage } from '../../store/schema';
import { write } from '../../store/write';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import type { LobbyMessageInput } from './schemas';
import {
  addressableLobby,
  LOBBY_WRITE_STORES,
  lobbyAudience,
  lobbyKeyRange,
  lobbyMessageOrderKey,
  readLobbies,
  sweepIdleLobbies,
} from './store';
import {
  keepLobbyWriteReads,
  knownLobbyWrite,
  LOBBY_ACCESS_READS,
  type LobbyAudience,
  nextIdleDeadline,
  readLobbyAudience,
} from './lobby-write-cache';
import { ApiError } from '../core/errors';
import type { Message } from '../../store/records/core';
import { serializeLobbyMessage } from './message-wire';
import { keyRange } from '../../store/port';

/**
 * `POST /lobbies/{id}/messages`: a member sends a message on their own behalf, or the bot of
 * the lobby's application as the bot. Emits LOBBY_MESSAGE_CREATE to every member. The id is
 * taken inside the transaction, so ids increase in the order messages are stored.
 *
 * As `writeLobbies`, but the transaction makes only the requests it must: what the read cache
 * knows (no lobby past its idle deadline, the lobby and its members: `lobby-write-cache.ts`) is
 * not read again, and what it does not know is read in one round (a lobby the sweep removes is
 * past its deadline, so it is refused anyway), then the message and its event are added
 * together.
 */
export async function createLobbyMessage(
  ctx: PlatformContext,
  principal: Principal,
  lobbyId: string,
  input: LobbyMessageInput,
): Promise<Message> {
  // Taken in the same synchronous run as `write` orders the transaction (see `lobby-write-cache.ts`).
  const now = ctx.clock.now();
  const first = { now, known: knownLobbyWrite(ctx, lobbyId, now) };
  let run: typeof first | undefined = first;
  const read: { audience?: LobbyAudience; idleDeadline?: number } = {};
  const message = await write(
    ctx,
    LOBBY_WRITE_STORES,
    async (tx, emit) => {
      // A write that runs again was ordered anew: it reads everything in its own transaction.
      const { now, known } = run ?? {
        now: ctx.clock.now(),
        known: { ...first.known, answers: false, noneIdle: false, audience: undefined },
      };
      run = undefined;
      const [expired, idleDeadline, audience] = await Promise.all([
        known.noneIdle ? [] : sweepIdleLobbies(tx, emit, now),
        // Only where the bound is what the cache lacks (not while another write holds it back).
        known.answers && !known.noneIdle ? nextIdleDeadline(tx, now) : undefined,
        known.audience ?? readLobbyAudience(tx, lobbyId),
      ]);
      read.audience = known.audience ? undefined : audience;
      read.idleDeadline = expired.length === 0 ? idleDeadline : undefined;
      const lobby = addressableLobby(audience.lobby, principal, now);
      if (principal.kind !== 'bot' && !audience.memberIds.has(principal.user.id)) throw ApiError.of('MISSING_ACCESS');
      const id = ctx.ids.next();
      const record: StoredLobbyMessage = {
        id,
        order_key: lobbyMessageOrderKey(id),
        lobby_id: lobby.id,
        channel_id: lobby.linked_channel_id ?? lobby.id,
        author_id: principal.user.id,
        application_id: lobby.application_id,
        content: input.content,
        metadata: input.metadata ?? null,
        created_at: now,
      };
      const added = tx.store('lobby_messages').add(record);
      const message = serializeLobbyMessage(record, principal.user);
      emit({
        type: 'LOBBY_MESSAGE_CREATE',
        data: message,
        audience: lobbyAudience(lobby, audience.memberIds),
        channels: ['gateway', 'webhook'],
      });
      // Nothing follows the message and its event: the write may commit as soon as they are stored.
      tx.commit();
      await added;
      return message;
    },
    // Without the sweep, the first run only reads the lobby stores (see `lobby-write-cache.ts`).
    first.known.noneIdle ? LOBBY_ACCESS_READS : undefined,
  );
  keepLobbyWriteReads(ctx, lobbyId, first.known, read);
  return message;
}

/**
 * The newest `limit` stored messages of a lobby, newest first, optionally only those with an
 * id at or above `oldestId`: one bounded read whatever the lobby holds (ids at or above
 * `oldestId` are exactly the keys up to its order key).
 * @example await newestLobbyMessages(tx, lobbyId, 200, snowflakeAt(now - 72 * 3_600_000))
 */
export async function newestLobbyMessages(
  tx: ReturnType<typeof readLobbies>,
  lobbyId: string,
  limit: number,
  oldestId?: string,
): Promise<StoredLobbyMessage[]> {
  const range =
    oldestId === undefined
      ? lobbyKeyRange(lobbyId)
      : keyRange.bound([lobbyId, ''], [lobbyId, lobbyMessageOrderKey(oldestId)]);
  return tx.store('lobby_messages').getAll(range, limit);
}

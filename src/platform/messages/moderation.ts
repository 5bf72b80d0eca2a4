/**
 * The two server-side moderation-metadata endpoints (spec: "one for game direct messages, one
 * for lobby messages"), for the application's bot. The metadata replaces what the message had
 * and reaches the game clients as a realtime message update (LOBBY_MESSAGE_UPDATE, or
 * MESSAGE_UPDATE for a direct message), and the application's webhook events as
 * LOBBY_MESSAGE_UPDATE / GAME_DIRECT_MESSAGE_UPDATE. It is app-scoped: only the application
 * whose game the message came from may set it, and only its sessions see it.
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { DM_STORES, dmPair, findDmChannel, serializeDmChannel, serializeDmMessage } from './direct-messages';
import { ApiError } from '../core/errors';
import { serializeLobbyMessage } from '../lobbies/message-wire';
import { findLobby, lobbyAudience, lobbyKeyRange, lobbyMessageOrderKey, writeLobbies } from '../lobbies/store';
import type { Metadata } from '../../store/records/core';

/**
 * `PUT /lobbies/{lobby.id}/messages/{message.id}/moderation-metadata`: 404 10031 for a lobby
 * that is not the bot's application's, 404 10008 for a message not in it. Members hear
 * LOBBY_MESSAGE_UPDATE with the metadata.
 * @example await setLobbyMessageModerationMetadata(ctx, bot, lobbyId, messageId, { verdict: 'ok' })
 */
export async function setLobbyMessageModerationMetadata(
  ctx: PlatformContext,
  principal: BotPrincipal,
  lobbyId: string,
  messageId: string,
  metadata: Metadata,
): Promise<void> {
  await writeLobbies(ctx, async (tx, emit, now) => {
    const lobby = await findLobby(tx, principal, lobbyId, now);
    const messages = tx.store('lobby_messages');
    const record = await messages.get([lobby.id, lobbyMessageOrderKey(messageId)]);
    if (!record) throw ApiError.of('UNKNOWN_MESSAGE');
    const updated = { ...record, moderation_metadata: metadata };
    await messages.put(updated);
    const memberKeys = await tx.store('lobby_members').getAllKeys(lobbyKeyRange(lobby.id));
    const data = serializeLobbyMessage(updated, await tx.store('users').get(record.author_id));
    const audience = lobbyAudience(
      lobby,
      memberKeys.map(([, userId]) => userId),
    );
    emit({ type: 'LOBBY_MESSAGE_UPDATE', data, audience, channels: ['gateway', 'webhook'] });
  });
}

/**
 * `PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message.id}/moderation-metadata`
 * (either order of the two users): 404 10003 when the pair has no DM channel, 404 10008 when
 * the message is not in it or was sent from another application's game. Both users' sessions of
 * the application hear MESSAGE_UPDATE with the metadata.
 */
export async function setDmMessageModerationMetadata(
  ctx: PlatformContext,
  principal: BotPrincipal,
  userA: string,
  userB: string,
  messageId: string,
  metadata: Metadata,
): Promise<void> {
  const applicationId = principal.application.id;
  await write(ctx, [...DM_STORES], async (tx, emit) => {
    const channel = await findDmChannel(tx, userA, userB);
    if (!channel) throw ApiError.of('UNKNOWN_CHANNEL');
    const messages = tx.store('dm_messages');
    const record = await messages.get([channel.id, lobbyMessageOrderKey(messageId)]);
    if (!record || record.application_id !== applicationId) throw ApiError.of('UNKNOWN_MESSAGE');
    const updated = { ...record, moderation_metadata: metadata };
    await messages.put(updated);
    const users = tx.store('users');
    const [low, high] = dmPair(userA, userB);
    const [lowUser, highUser] = await Promise.all([users.get(low), users.get(high)]);
    const message = serializeDmMessage(updated, record.author_id === low ? lowUser : highUser, applicationId);
    emit({ type: 'MESSAGE_UPDATE', data: message, audience: { user_ids: [low, high], application_id: applicationId } });
    const recipients = [lowUser, highUser].filter((u) => u !== undefined);
    emit({
      type: 'GAME_DIRECT_MESSAGE_UPDATE',
      data: { ...message, channel: serializeDmChannel(channel, recipients) },
      audience: { application_id: applicationId },
      channels: ['webhook'],
    });
  });
}

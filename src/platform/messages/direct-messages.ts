/**
 * Direct messages between users of a game (the Social SDK's `SendUserMessage` and
 * `GetUserMessagesWithLimit`), following the public guide:
 * - anyone may be messaged unless either user blocked the other;
 * - between friends (platform friends, or game friends in the sender's game), unless both are
 *   provisional accounts, the message is kept in the pair's DM channel (type 1, created by the
 *   first message) and reaches both users' sessions as MESSAGE_CREATE;
 * - otherwise it is ephemeral: not kept, delivered only in the game (the recipient must have
 *   played it), with `channel_id` set to the other user's id for each of them;
 * - history is the newest 200 at most, from the last 72 hours, and only when both users have
 *   played the game (404 otherwise); each message carries its reactions, `me` being the reader's.
 * Messages are keyed `[channel_id, order_key]` newest first, so history is one bounded `getAll`.
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import type { StoredDmMessage, DmChannel, DmChannelRecord } from '../../store/records/direct-messages';
import type { DmMessageInput } from './direct-message-schemas';
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { DM_MESSAGES_DEFAULT, DM_MESSAGES_HISTORY_HOURS, DM_MESSAGES_MAX } from '../core/limits';
import { lobbyMessageOrderKey } from '../lobbies/store';
import type { Message, UserRecord } from '../../store/records/core';
import { areFriends, eitherBlocked, hasPlayed, type RelationshipTx } from '../relationships/store';
import { snowflakeAt, snowflakeKey } from '../core/snowflake';
import { deletedUser, serializeUser } from '../accounts/users';
import { keyRange, type KeyRange } from '../../store/port';
import { myReactionKeys, wireReactions } from './reaction-wire';

/** Every store a DM write reads or touches (the event log is added by `write`). */
export const DM_STORES = [
  'users',
  'relationships',
  'tokens',
  'dm_channels',
  'dm_messages',
  'message_reactions',
] as const;

/** The two users of a pair in snowflake order: the key of their DM channel. */
export function dmPair(a: string, b: string): [string, string] {
  return snowflakeKey(a) < snowflakeKey(b) ? [a, b] : [b, a];
}

/** Every message key of one DM channel from the newest down to the one with id `oldestId` (all when absent). */
export function dmMessageRange(channelId: string, oldestId?: string): KeyRange {
  return keyRange.bound(
    [channelId, ''],
    [channelId, oldestId === undefined ? '\uffff' : lobbyMessageOrderKey(oldestId)],
  );
}

/**
 * A direct message on the wire. Moderation metadata belongs to the application that sent the
 * message: only a viewer of that application sees it.
 */
export function serializeDmMessage(
  message: StoredDmMessage,
  author: UserRecord | undefined,
  viewerApplicationId: string | null,
): Message {
  return {
    id: message.id,
    type: 0,
    content: message.content,
    channel_id: message.channel_id,
    recipient_id: message.recipient_id,
    author: author ? serializeUser(author) : deletedUser(message.author_id),
    timestamp: new Date(message.created_at).toISOString(),
    edited_timestamp: null,
    flags: 0,
    metadata: message.metadata,
    application_id: message.application_id,
    ...(message.moderation_metadata && viewerApplicationId === message.application_id
      ? { moderation_metadata: message.moderation_metadata }
      : {}),
  };
}

/** A DM channel as one of its users sees it: `recipients` are the others. */
export function serializeDmChannel(channel: DmChannelRecord, recipients: UserRecord[]): DmChannel {
  return {
    id: channel.id,
    type: 1,
    last_message_id: channel.last_message_id,
    flags: 0,
    recipients: recipients.map((u) => serializeUser(u)),
  };
}

/** The DM channel of two users, or undefined before their first kept message. */
export async function findDmChannel(tx: RelationshipTx, a: string, b: string): Promise<DmChannelRecord | undefined> {
  return tx.store('dm_channels').index('by_pair').get(dmPair(a, b));
}

/**
 * `POST /users/@me/dms/{recipient_id}/messages`: the caller sends a direct message from the
 * caller's game. Blocked either way, to oneself or to a bot is 403 50007; an ephemeral message
 * to a user who never played the game is 403 50007 too. Resolves to the message as the sender
 * sees it.
 * @example await sendUserMessage(ctx, principal, bob.id, { content: 'ready to queue?' })
 */
export async function sendUserMessage(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  recipientId: string,
  input: DmMessageInput,
): Promise<Message> {
  return write(ctx, [...DM_STORES], (tx, emit) => appendUserMessage(ctx, tx, emit, principal, recipientId, input));
}

/**
 * {@link sendUserMessage} inside the caller's write (whose stores include {@link DM_STORES}), for
 * a change that sends a direct message with it, all or nothing.
 */
export async function appendUserMessage(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  principal: BearerPrincipal,
  recipientId: string,
  input: DmMessageInput,
): Promise<Message> {
  const me = principal.user;
  const applicationId = principal.application.id;
  const recipient = await tx.store('users').get(recipientId);
  if (!recipient) throw ApiError.of('UNKNOWN_USER');
  if (recipient.id === me.id || recipient.bot) throw ApiError.of('CANNOT_MESSAGE_USER');
  if (await eitherBlocked(tx, me.id, recipient.id)) throw ApiError.of('CANNOT_MESSAGE_USER');
  const now = ctx.clock.now();
  const id = ctx.ids.next();
  const kept = (await areFriends(tx, me.id, recipient.id, applicationId)) && !(me.provisional && recipient.provisional);
  const base = {
    id,
    order_key: lobbyMessageOrderKey(id),
    author_id: me.id,
    recipient_id: recipient.id,
    application_id: applicationId,
    content: input.content,
    metadata: input.metadata ?? null,
    moderation_metadata: null,
    created_at: now,
  };
  if (!kept) {
    if (!(await hasPlayed(tx, applicationId, recipient.id)))
      throw ApiError.of('CANNOT_MESSAGE_USER', 'This user has not played this game.');
    const forSender = serializeDmMessage({ ...base, channel_id: recipient.id }, me, applicationId);
    const forRecipient = serializeDmMessage({ ...base, channel_id: me.id }, me, applicationId);
    emit({ type: 'MESSAGE_CREATE', data: forSender, audience: { user_ids: [me.id], application_id: applicationId } });
    emit({
      type: 'MESSAGE_CREATE',
      data: forRecipient,
      audience: { user_ids: [recipient.id], application_id: applicationId },
    });
    const channel = { id: recipient.id, type: 1 as const, recipients: [serializeUser(me), serializeUser(recipient)] };
    emit({
      type: 'GAME_DIRECT_MESSAGE_CREATE',
      data: { ...forSender, channel },
      audience: { application_id: applicationId },
      channels: ['webhook'],
    });
    return forSender;
  }
  const channel =
    (await findDmChannel(tx, me.id, recipient.id)) ??
    (await openDmChannel(tx, emit, ctx.ids.next(), me, recipient, now));
  const record: StoredDmMessage = { ...base, channel_id: channel.id };
  await tx.store('dm_messages').add(record);
  await tx.store('dm_channels').put({ ...channel, last_message_id: id });
  const message = serializeDmMessage(record, me, applicationId);
  emit({ type: 'MESSAGE_CREATE', data: message, audience: { user_ids: [me.id, recipient.id] } });
  const webhookChannel = serializeDmChannel({ ...channel, last_message_id: id }, [me, recipient]);
  emit({
    type: 'GAME_DIRECT_MESSAGE_CREATE',
    data: { ...message, channel: webhookChannel },
    audience: { application_id: applicationId },
    channels: ['webhook'],
  });
  return message;
}

/** Creates the pair's DM channel; each user hears CHANNEL_CREATE with the other as recipient. */
async function openDmChannel(
  tx: WriteTx,
  emit: Emit,
  id: string,
  a: UserRecord,
  b: UserRecord,
  now: number,
): Promise<DmChannelRecord> {
  const [low, high] = dmPair(a.id, b.id);
  const channel: DmChannelRecord = {
    id,
    user_low: low,
    user_high: high,
    recipient_ids: [low, high],
    last_message_id: null,
    created_at: now,
  };
  await tx.store('dm_channels').add(channel);
  emit({ type: 'CHANNEL_CREATE', data: serializeDmChannel(channel, [b]), audience: { user_ids: [a.id] } });
  emit({ type: 'CHANNEL_CREATE', data: serializeDmChannel(channel, [a]), audience: { user_ids: [b.id] } });
  return channel;
}

/**
 * `GET /users/@me/dms/{recipient_id}/messages?limit=`: the newest `limit` (1-200, default 50)
 * kept messages with the recipient from the last 72 hours by the platform clock, newest first.
 * 404 10003 unless both users have played the caller's game; none yet is an empty list.
 */
export async function listUserMessages(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  recipientId: string,
  limit = DM_MESSAGES_DEFAULT,
): Promise<Message[]> {
  const tx = ctx.db.read([...DM_STORES]);
  const recipient = await tx.store('users').get(recipientId);
  if (!recipient) throw ApiError.of('UNKNOWN_USER');
  const applicationId = principal.application.id;
  if (!(await hasPlayed(tx, applicationId, recipient.id)) || !(await hasPlayed(tx, applicationId, principal.user.id))) {
    throw ApiError.of('UNKNOWN_CHANNEL', 'Unknown Channel: both users must have played this game.');
  }
  const channel = await findDmChannel(tx, principal.user.id, recipient.id);
  if (!channel) return [];
  const oldest = snowflakeAt(ctx.clock.now() - DM_MESSAGES_HISTORY_HOURS * 3_600_000);
  const records = await tx
    .store('dm_messages')
    .getAll(dmMessageRange(channel.id, oldest), Math.min(Math.max(1, limit), DM_MESSAGES_MAX));
  const authors = new Map([principal.user, recipient].map((u) => [u.id, u]));
  const mine = await Promise.all(records.map((m) => myReactionKeys(tx, m, principal.user.id)));
  return records.map((m, i) => {
    const message = serializeDmMessage(m, authors.get(m.author_id), applicationId);
    const reactions = wireReactions(m.reactions, mine[i]);
    return reactions ? { ...message, reactions } : message;
  });
}

/** `GET /users/@me/channels`: the caller's DM channels, most recent message first. */
export async function listDmChannels(ctx: PlatformContext, principal: BearerPrincipal): Promise<DmChannel[]> {
  const tx = ctx.db.read(['dm_channels', 'users']);
  const channels = await tx.store('dm_channels').index('by_recipient').getAll(principal.user.id);
  const others = await Promise.all(
    channels.map((c) => tx.store('users').get(c.user_low === principal.user.id ? c.user_high : c.user_low)),
  );
  const recency = (c: DmChannelRecord) => snowflakeKey(c.last_message_id ?? c.id);
  return channels
    .map((channel, i) => ({ channel, other: others[i] }))
    .sort((x, y) => (recency(x.channel) < recency(y.channel) ? 1 : -1))
    .map(({ channel, other }) => serializeDmChannel(channel, other ? [other] : []));
}

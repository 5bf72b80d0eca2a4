/**
 * Reading messages of guild channels: one message, and the history before, after or around a
 * message (newest first; one bounded read each). VIEW_CHANNEL is needed; without
 * READ_MESSAGE_HISTORY the history is empty and single messages are refused. A bot whose
 * application lacks the MESSAGE_CONTENT intent gets empty content, embeds, attachments and
 * components except in its own messages and those mentioning it.
 */
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { CHANNEL_MESSAGES_DEFAULT } from '../core/limits';
import {
  MESSAGE_READ_STORES,
  canReadContent,
  canReadHistory,
  loadChannelAccess,
  requireChannelPermissions,
  requireView,
  type ContentReader,
  type MessageTx,
} from './access';
import { channelKeyRange, messageOrderKey } from './keys';
import { myReactionKeys } from './reaction-wire';
import { myPollVotes } from './poll-results';
import { MESSAGE_TYPES, type ChannelMessageRecord } from '../../store/records/messages';
import { loadUsers, serializeChannelMessage, userIdsOf, withoutContent, type ChannelMessage } from './wire';
import { PERMISSIONS } from '../core/permissions';
import { grantedPrivilegedIntents } from '../accounts/privileged-intents';
import { keyRange } from '../../store/port';

/** How the caller reads content: users always; bots with MESSAGE_CONTENT granted to their application. */
export async function contentReaderOf(ctx: PlatformContext, principal: Principal): Promise<ContentReader> {
  const now = ctx.clock.now();
  if (principal.kind !== 'bot') return { userId: principal.user.id, contentIntent: true, now };
  const granted = await grantedPrivilegedIntents(ctx.db, principal.application);
  return { userId: principal.user.id, contentIntent: (granted & INTENTS.MESSAGE_CONTENT) !== 0, now };
}

/**
 * Serializes stored messages for one reader, read in the caller's transaction: replies carry
 * the message they reply to (null once it is gone), and content is emptied where the reader
 * may not see it.
 */
export async function messagesForReader(
  tx: MessageTx,
  records: readonly ChannelMessageRecord[],
  reader: ContentReader,
): Promise<ChannelMessage[]> {
  const replies = records.filter((r) => r.type === MESSAGE_TYPES.REPLY && r.message_reference);
  const referenced = await Promise.all(
    replies.map((r) =>
      tx
        .store('channel_messages')
        .get([r.message_reference!.channel_id, messageOrderKey(r.message_reference!.message_id)]),
    ),
  );
  const byId = new Map(replies.map((r, i) => [r.id, referenced[i] ?? null]));
  const mine = await Promise.all(records.map((r) => myReactionKeys(tx, r, reader.userId)));
  const votes = await Promise.all(
    records.map((r) => (r.poll?.vote_counts ? myPollVotes(tx, r, reader.userId) : undefined)),
  );
  const users = await loadUsers(tx, userIdsOf([...records, ...referenced.flatMap((r) => (r ? [r] : []))]));
  const shown = (record: ChannelMessageRecord, message: ChannelMessage) =>
    canReadContent(reader, record) ? message : withoutContent(message);
  return records.map((record, i) => {
    const ref = byId.get(record.id);
    const referencedMessage =
      ref === undefined ? undefined : ref === null ? null : shown(ref, serializeChannelMessage(ref, users));
    return shown(
      record,
      serializeChannelMessage(record, users, {
        referenced: referencedMessage,
        myReactions: mine[i],
        myVotes: votes[i],
        now: reader.now,
      }),
    );
  });
}

/** `GET /channels/{id}/messages/{id}`: VIEW_CHANNEL and READ_MESSAGE_HISTORY (50013 without it). */
export async function getChannelMessage(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  messageId: string,
): Promise<ChannelMessage> {
  const reader = await contentReaderOf(ctx, principal);
  const tx = ctx.db.read(MESSAGE_READ_STORES);
  const access = await loadChannelAccess(tx, channelId, principal.user.id);
  requireChannelPermissions(access, PERMISSIONS.READ_MESSAGE_HISTORY);
  const record = await tx.store('channel_messages').get([channelId, messageOrderKey(messageId)]);
  if (!record) throw ApiError.of('UNKNOWN_MESSAGE');
  return (await messagesForReader(tx, [record], reader))[0];
}

/** Which messages a history read asks for: at most one of `before`, `after`, `around`. */
export interface HistoryQuery {
  limit?: number;
  before?: string;
  after?: string;
  around?: string;
}

/** Up to `limit` messages of the channel after `after`: the oldest ones past it, answered newest first. */
async function readAfter(
  tx: MessageTx,
  channelId: string,
  after: string,
  limit: number,
): Promise<ChannelMessageRecord[]> {
  const out: ChannelMessageRecord[] = [];
  if (limit <= 0) return out;
  // Newer messages have smaller keys: walk from just below `after` towards the newest.
  const range = keyRange.bound([channelId, ''], [channelId, messageOrderKey(after)], false, true);
  out.push(...(await tx.store('channel_messages').getAll(range, limit, 'prev')));
  return out.reverse();
}

/** Up to `limit` messages of the channel from the key of `from` (inclusive or not), newest first. */
function readFrom(tx: MessageTx, channelId: string, from: string, inclusive: boolean, limit: number) {
  return tx
    .store('channel_messages')
    .getAll(keyRange.bound([channelId, messageOrderKey(from)], [channelId, '\uffff'], !inclusive, false), limit);
}

/**
 * `GET /channels/{id}/messages?limit&before&after&around`: 1 to 100 messages (50 unless asked),
 * newest first. `around` answers the message itself and the older half, the rest newer ones.
 */
export async function listChannelMessages(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  query: HistoryQuery,
): Promise<ChannelMessage[]> {
  const reader = await contentReaderOf(ctx, principal);
  const tx = ctx.db.read(MESSAGE_READ_STORES);
  const access = await loadChannelAccess(tx, channelId, principal.user.id);
  requireView(access);
  if (!canReadHistory(access)) return [];
  const limit = query.limit ?? CHANNEL_MESSAGES_DEFAULT;
  let records: ChannelMessageRecord[];
  if (query.before !== undefined) records = await readFrom(tx, channelId, query.before, false, limit);
  else if (query.after !== undefined) records = await readAfter(tx, channelId, query.after, limit);
  else if (query.around !== undefined) {
    const older = await readFrom(tx, channelId, query.around, true, Math.ceil(limit / 2));
    const newer = await readAfter(tx, channelId, query.around, limit - older.length);
    records = [...newer, ...older];
  } else records = await tx.store('channel_messages').getAll(channelKeyRange(channelId), limit);
  return messagesForReader(tx, records, reader);
}

/**
 * Polls of guild channel messages, as the platform's public API has them:
 * - users vote through a sandbox control (the platform's client route for voting is not public):
 *   a user's votes are set whole, at most one answer unless the poll allows several, never after
 *   it ended; bots do not vote. Each vote added or removed logs MESSAGE_POLL_VOTE_ADD / REMOVE
 *   (GUILD_MESSAGE_POLLS, to sessions that can view the channel);
 * - `GET /channels/{id}/polls/{message_id}/answers/{answer_id}`: an answer's voters, in user id
 *   order after `after`, 1 to 100 (25 unless asked);
 * - `POST /channels/{id}/polls/{message_id}/expire`: the poll's author ends it now (403 50013
 *   for anyone else, 400 520006 for a message without a poll, 400 520001 once it ended) and gets
 *   the message; MESSAGE_UPDATE carries the finalized results.
 * A poll is finalized once ended or past its expiry by the platform clock. The platform's poll
 * result message, posted when a poll ends, is not posted here.
 */
import { write } from '../../store/write';
import type { ChannelMessageRecord, StoredPoll } from '../../store/records/messages';
import type { User } from '../../store/records/core';
import type { ReadTx } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { POLL_VOTERS_PAGE_DEFAULT } from '../core/limits';
import { PERMISSIONS } from '../core/permissions';
import { snowflakeKey } from '../core/snowflake';
import { deletedUser, serializeUser } from '../accounts/users';
import { keyRange } from '../../store/port';
import type { Principal } from '../oauth2/auth';
import { MESSAGE_READ_STORES, loadChannelAccess, requireChannelPermissions, requireView } from './access';
import { messageAudience, messageEventData } from './events';
import { messageOrderKey } from './keys';
import { contentReaderOf, messagesForReader } from './reads';
import { loadUsers, serializeChannelMessage, userIdsOf, type ChannelMessage } from './wire';
import { answerKey, myPollVotes, pollFinalized } from './poll-results';

/** Stores a poll operation reads or touches. */
const POLL_STORES = [...MESSAGE_READ_STORES, 'poll_votes'] as const;

/** The poll message: 404 10008 when unknown, 400 520006 when it carries no poll. */
async function loadPollMessage(tx: ReadTx, channelId: string, messageId: string) {
  const record = await tx.store('channel_messages').get([channelId, messageOrderKey(messageId)]);
  if (!record) throw ApiError.of('UNKNOWN_MESSAGE');
  if (!record.poll) throw ApiError.of('CANNOT_EXPIRE_NON_POLL');
  return record as ChannelMessageRecord & { poll: StoredPoll };
}

/**
 * The sandbox's vote control: `userId` now votes for exactly `answerIds` (empty takes every vote
 * back). The user must be a member who can view the channel (403 50001) and read its history
 * (403 50013); a bot, an unknown answer, or several answers of a single-choice poll are 400
 * 50035 naming `answer_ids`; an ended poll is 400 520001. Answers the user's votes as they stand.
 */
export async function setPollVotes(
  ctx: PlatformContext,
  userId: string,
  channelId: string,
  messageId: string,
  answerIds: readonly number[],
): Promise<number[]> {
  return write(ctx, [...POLL_STORES], async (tx, emit) => {
    const now = ctx.clock.now();
    const user = await tx.store('users').get(userId);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    const access = await loadChannelAccess(tx, channelId, userId);
    requireChannelPermissions(access, PERMISSIONS.READ_MESSAGE_HISTORY);
    const record = await loadPollMessage(tx, channelId, messageId);
    const poll = record.poll;
    const wanted = [...new Set(answerIds)].sort((a, b) => a - b);
    if (user.bot) throw ApiError.invalidForm({ answer_ids: 'Bots cannot vote in polls.' });
    if (wanted.some((id) => !poll.answers.some((a) => a.answer_id === id)))
      throw ApiError.invalidForm({ answer_ids: 'Unknown poll answer.' });
    if (wanted.length > 1 && !poll.allow_multiselect)
      throw ApiError.invalidForm({ answer_ids: 'This poll allows one answer only.' });
    if (pollFinalized(poll, now)) throw ApiError.of('POLL_EXPIRED');
    const votes = tx.store('poll_votes');
    const had = [...(await myPollVotes(tx, record, userId))];
    const counts = { ...(poll.vote_counts ?? {}) };
    const change = (type: 'MESSAGE_POLL_VOTE_ADD' | 'MESSAGE_POLL_VOTE_REMOVE', answerId: number) =>
      emit({
        // Both events carry the same payload: one member of the union types the emit.
        type: type as 'MESSAGE_POLL_VOTE_ADD',
        data: {
          user_id: userId,
          channel_id: channelId,
          message_id: record.id,
          guild_id: record.guild_id,
          answer_id: answerId,
        },
        audience: { guild_id: record.guild_id, intent: INTENTS.GUILD_MESSAGE_POLLS },
      });
    for (const id of had.filter((a) => !wanted.includes(a))) {
      await votes.delete([channelId, record.id, answerKey(id), snowflakeKey(userId)]);
      counts[id] -= 1;
      if (counts[id] <= 0) delete counts[id];
      change('MESSAGE_POLL_VOTE_REMOVE', id);
    }
    for (const id of wanted.filter((a) => !had.includes(a))) {
      await votes.add({
        channel_id: channelId,
        message_id: record.id,
        answer_key: answerKey(id),
        user_key: snowflakeKey(userId),
        answer_id: id,
        user_id: userId,
        created_at: now,
      });
      counts[id] = (counts[id] ?? 0) + 1;
      change('MESSAGE_POLL_VOTE_ADD', id);
    }
    await tx.store('channel_messages').put({ ...record, poll: { ...poll, vote_counts: counts } });
    return wanted;
  });
}

/** `GET /channels/{id}/polls/{message_id}/answers/{answer_id}?after&limit`: `{users}`, in user id order. */
export async function listAnswerVoters(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  messageId: string,
  answerId: number,
  query: { after?: string; limit?: number },
): Promise<{ users: User[] }> {
  const tx = ctx.db.read([...POLL_STORES]);
  const access = await loadChannelAccess(tx, channelId, principal.user.id);
  requireChannelPermissions(access, PERMISSIONS.READ_MESSAGE_HISTORY);
  const record = await loadPollMessage(tx, channelId, messageId);
  if (!record.poll.answers.some((a) => a.answer_id === answerId))
    throw ApiError.invalidForm({ answer_id: 'Unknown poll answer.' });
  const key = answerKey(answerId);
  const range = keyRange.bound(
    [channelId, record.id, key, query.after === undefined ? '' : snowflakeKey(query.after)],
    [channelId, record.id, key, '\uffff'],
    query.after !== undefined,
    false,
  );
  const records = await tx.store('poll_votes').getAll(range, query.limit ?? POLL_VOTERS_PAGE_DEFAULT);
  const users = await Promise.all(records.map((r) => tx.store('users').get(r.user_id)));
  return { users: records.map((r, i) => (users[i] ? serializeUser(users[i]!) : deletedUser(r.user_id))) };
}

/**
 * `POST /channels/{id}/polls/{message_id}/expire`: the poll's author ends it now; answers the
 * message with its finalized results and logs MESSAGE_UPDATE.
 */
export async function expirePoll(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  messageId: string,
): Promise<ChannelMessage> {
  const reader = await contentReaderOf(ctx, principal);
  return write(ctx, [...POLL_STORES], async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadChannelAccess(tx, channelId, principal.user.id);
    requireView(access);
    const record = await loadPollMessage(tx, channelId, messageId);
    if (record.author_id !== principal.user.id) throw ApiError.of('MISSING_PERMISSIONS');
    if (pollFinalized(record.poll, now)) throw ApiError.of('POLL_EXPIRED');
    const next = { ...record, poll: { ...record.poll, ended_at: now, expiry: new Date(now).toISOString() } };
    await tx.store('channel_messages').put(next);
    const shared = serializeChannelMessage(next, await loadUsers(tx, userIdsOf([next])), { now });
    emit({
      type: 'MESSAGE_UPDATE',
      data: messageEventData(shared, record.guild_id),
      audience: messageAudience(record.guild_id),
    });
    return (await messagesForReader(tx, [next], { ...reader, now }))[0];
  });
}

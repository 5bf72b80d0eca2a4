/**
 * A poll's results as a reader sees them (counts per answer, `me_voted`, `is_finalized` by the
 * platform clock) and the keys of the `poll_votes` store.
 */
import type { ChannelMessageRecord, StoredPoll } from '../../store/records/messages';
import type { ReadTx } from '../../store/schema';
import { snowflakeKey } from '../core/snowflake';
import { keyRange, type KeyRange } from '../../store/port';

/** Every vote of one poll message (deleted with the message). */
export function pollVotesRange(channelId: string, messageId: string): KeyRange {
  return keyRange.bound([channelId, messageId, '', ''], [channelId, messageId, '\uffff', '\uffff']);
}

/** An answer id as its part of a vote's key: zero-padded, so answers sort by id. */
export function answerKey(answerId: number): string {
  return String(answerId).padStart(3, '0');
}

/** True once the poll was ended or is past its expiry at `now`. */
export function pollFinalized(poll: StoredPoll, now: number): boolean {
  return poll.ended_at !== undefined || Date.parse(poll.expiry) <= now;
}

/** The poll's `results` for a reader: counts per answer and whether the reader voted for each. */
export function pollResults(poll: StoredPoll, myVotes: ReadonlySet<number>, now: number) {
  const counts = poll.vote_counts ?? {};
  return {
    is_finalized: pollFinalized(poll, now),
    answer_counts: poll.answers
      .filter((a) => (counts[a.answer_id] ?? 0) > 0)
      .map((a) => ({ id: a.answer_id, count: counts[a.answer_id], me_voted: myVotes.has(a.answer_id) })),
  };
}

/** The answers of a poll message that `userId` voted for (one key lookup per answer). */
export async function myPollVotes(tx: ReadTx, record: ChannelMessageRecord, userId: string): Promise<Set<number>> {
  const mine = new Set<number>();
  const counts = record.poll?.vote_counts;
  if (!counts) return mine;
  const store = tx.store('poll_votes');
  const userKey = snowflakeKey(userId);
  await Promise.all(
    (record.poll?.answers ?? [])
      .filter((a) => (counts[a.answer_id] ?? 0) > 0)
      .map(async (a) => {
        if (await store.getKey([record.channel_id, record.id, answerKey(a.answer_id), userKey])) mine.add(a.answer_id);
      }),
  );
  return mine;
}

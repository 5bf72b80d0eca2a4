/**
 * Keys of the `message_reactions` store (`[channel_id, message_id, emoji_key, type, user_key]`)
 * and the counts a message record keeps of them: an emoji's users, in user id order, are one
 * bounded read; a message's reactions are one range (deleted with the message).
 */
import { keyRange, type KeyRange } from '../../store/port';
import type { ReactionEmoji, StoredReaction } from '../../store/records/messages';
import { snowflakeKey } from '../core/snowflake';

/** Above every emoji key, type and user key (all strings of UTF-16 code units below it). */
const TOP = '\uffff';

/** Every reaction of one message. */
export function messageReactionsRange(channelId: string, messageId: string): KeyRange {
  return keyRange.bound([channelId, messageId, '', '', ''], [channelId, messageId, TOP, TOP, TOP]);
}

/** Every reaction of one emoji on one message (both types). */
export function emojiReactionsRange(channelId: string, messageId: string, emojiKey: string): KeyRange {
  return keyRange.bound([channelId, messageId, emojiKey, '', ''], [channelId, messageId, emojiKey, TOP, TOP]);
}

/** The users of one emoji and type on one message, after the user `after` (exclusive) when given. */
export function reactionUsersRange(
  channelId: string,
  messageId: string,
  emojiKey: string,
  type: '0' | '1',
  after?: string,
): KeyRange {
  return keyRange.bound(
    [channelId, messageId, emojiKey, type, after === undefined ? '' : snowflakeKey(after)],
    [channelId, messageId, emojiKey, type, TOP],
    after !== undefined,
    false,
  );
}

/** The counts after one user's reaction of `type` with `emoji` was added: a new emoji goes last. */
export function withReactionAdded(
  reactions: readonly StoredReaction[],
  key: string,
  emoji: ReactionEmoji,
  type: '0' | '1',
): StoredReaction[] {
  const bump = (r: StoredReaction) => (type === '0' ? { ...r, normal: r.normal + 1 } : { ...r, burst: r.burst + 1 });
  if (reactions.some((r) => r.key === key)) return reactions.map((r) => (r.key === key ? bump(r) : r));
  return [...reactions, bump({ key, emoji, normal: 0, burst: 0, burst_colors: [] })];
}

/** The counts after one user's reaction was removed: an emoji nobody reacts with any more is gone. */
export function withReactionRemoved(
  reactions: readonly StoredReaction[],
  key: string,
  type: '0' | '1',
): StoredReaction[] {
  return reactions
    .map((r) => (r.key !== key ? r : type === '0' ? { ...r, normal: r.normal - 1 } : { ...r, burst: r.burst - 1 }))
    .filter((r) => r.normal + r.burst > 0);
}

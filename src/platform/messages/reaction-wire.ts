/**
 * Reactions on the wire: the message object's `reactions` (one per emoji, in the order each was
 * first added, with `me` / `me_burst` for the user who reads the message), and the stored
 * counts they come from. The users of each reaction are in the `message_reactions` store.
 */
import type { MessageReactionResponse } from 'discord-api-spec';
import type { StoredReaction } from '../../store/records/messages';
import type { ReadTx } from '../../store/schema';
import { snowflakeKey } from '../core/snowflake';

/** The key of one of a reader's reactions among {@link myReactionKeys}: emoji key and type. */
export function mineKey(emojiKey: string, type: '0' | '1'): string {
  return `${type}:${emojiKey}`;
}

/**
 * The message object's `reactions` as `mine` (see {@link myReactionKeys}) reads them; undefined
 * when the message has none, as the platform leaves the field out.
 * @example message.reactions = wireReactions(record.reactions, await myReactionKeys(tx, record, userId));
 */
export function wireReactions(
  stored: readonly StoredReaction[] | undefined,
  mine: ReadonlySet<string> = new Set(),
): MessageReactionResponse[] | undefined {
  if (!stored?.length) return undefined;
  return stored.map((r) => ({
    emoji: r.emoji,
    count: r.normal + r.burst,
    count_details: { burst: r.burst, normal: r.normal },
    burst_colors: r.burst_colors,
    me: mine.has(mineKey(r.key, '0')),
    me_burst: mine.has(mineKey(r.key, '1')),
  }));
}

/**
 * Which of a message's reactions are `userId`'s (keys made by {@link mineKey}), read in the
 * caller's transaction (which includes `message_reactions`): one key lookup per reaction.
 */
export async function myReactionKeys(
  tx: ReadTx,
  message: { channel_id: string; id: string; reactions?: readonly StoredReaction[] },
  userId: string,
): Promise<Set<string>> {
  const mine = new Set<string>();
  if (!message.reactions?.length) return mine;
  const userKey = snowflakeKey(userId);
  const store = tx.store('message_reactions');
  await Promise.all(
    (message.reactions ?? []).flatMap((r) =>
      (['0', '1'] as const)
        .filter((type) => (type === '0' ? r.normal : r.burst) > 0)
        .map(async (type) => {
          if (await store.getKey([message.channel_id, message.id, r.key, type, userKey]))
            mine.add(mineKey(r.key, type));
        }),
    ),
  );
  return mine;
}

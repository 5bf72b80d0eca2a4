/**
 * The `{emoji}` of the reaction routes, as the platform's public API takes it: a unicode emoji,
 * or a custom emoji as `name:id` (URL-encoded; `a:name:id` and the bare `id` are read too). A
 * custom emoji must exist and be usable by the caller: an emoji of a guild the caller is a
 * member of, or of the caller's own application. Anything else is 404 10014.
 */
import type { ReactionEmoji, StoredReaction } from '../../store/records/messages';
import type { ReadTx } from '../../store/schema';
import { ApiError } from '../core/errors';
import { isSnowflake } from '../core/snowflake';

/** One fully-qualified emoji (the Unicode RGI set), or a pictograph with its optional presentation selector. */
const UNICODE_EMOJI = new RegExp('^(?:\\p{RGI_Emoji}|\\p{Extended_Pictographic}\\uFE0F?)$', 'v');

/** An emoji as a reaction names it: its identity (`key`) and its wire form. */
export interface ResolvedEmoji {
  key: string;
  emoji: ReactionEmoji;
}

/** The route's `{emoji}` as sent: decoded once more when a client encoded it twice over. */
function decodedParam(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Reads the `{emoji}` parameter: a unicode emoji is its own key; a custom emoji's key is its id,
 * and its name and animation are the stored emoji's. An emoji already on the message (`onMessage`)
 * is known even when its guild deleted it since, so that its reactions can still be removed.
 * @example const { key, emoji } = await resolveReactionEmoji(tx, '%F0%9F%91%8D', userId, applicationId);
 */
export async function resolveReactionEmoji(
  tx: ReadTx,
  raw: string,
  userId: string,
  applicationId: string,
  onMessage: readonly StoredReaction[] = [],
): Promise<ResolvedEmoji> {
  const text = decodedParam(raw);
  if (UNICODE_EMOJI.test(text)) return { key: text, emoji: { id: null, name: text } };
  const id = text.split(':').at(-1) ?? '';
  if (!isSnowflake(id)) throw ApiError.of('UNKNOWN_EMOJI');
  const present = onMessage.find((r) => r.key === id);
  if (present) return { key: present.key, emoji: present.emoji };
  const stored = await tx.store('emojis').get(id);
  if (!stored) throw ApiError.of('UNKNOWN_EMOJI');
  const usable =
    stored.application_id === applicationId ||
    (stored.guild_id !== undefined && (await tx.store('members').get([stored.guild_id, userId])) !== undefined);
  if (!usable) throw ApiError.of('UNKNOWN_EMOJI');
  return { key: stored.id, emoji: { id: stored.id, name: stored.name, animated: stored.animated } };
}

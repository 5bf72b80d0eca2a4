/**
 * A simple AutoMod keyword rule per guild: a message (created or edited, including an edited
 * deferred interaction response) whose text contains one of the guild's keywords is refused
 * with 400 200000 and nothing is stored. Keywords match whole words, case-insensitively; a `*`
 * at either end matches the rest of a word (`cat*` matches "catnip"), as the platform's keyword
 * filters do. The keywords are set through the sandbox.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { MessageTx } from './access';
import type { AutoModKeywordsRecord, Embed } from '../../store/records/messages';

/** The text AutoMod reads: content, Text Displays and embed texts. */
export function automodText(content: string, componentText: string, embeds: readonly Embed[]): string {
  const embedText = embeds.flatMap((e) => [
    e.title,
    e.description,
    e.footer?.text,
    e.author?.name,
    ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
  ]);
  return [content, componentText, ...embedText].filter(Boolean).join('\n');
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `text` contains `keyword` as the platform's keyword filter reads it. */
export function matchesKeyword(text: string, keyword: string): boolean {
  const prefix = keyword.startsWith('*');
  const suffix = keyword.endsWith('*') && keyword.length > 1;
  const core = escape(keyword.replace(/^\*|\*$/g, ''));
  if (core === '') return false;
  const pattern = `${prefix ? '' : '(?<![\\p{L}\\p{N}_])'}${core}${suffix ? '' : '(?![\\p{L}\\p{N}_])'}`;
  return new RegExp(pattern, 'iu').test(text);
}

/** Throws 400 200000 when the guild's keyword rule blocks `text`. */
export async function requireAutoModAllows(tx: MessageTx, guildId: string, text: string): Promise<void> {
  const rule = await tx.store('automod_keywords').get(guildId);
  if (rule?.keywords.some((k) => matchesKeyword(text, k))) throw ApiError.of('AUTOMOD_BLOCKED');
}

/** A guild's blocked keywords (none when it has no rule). */
export async function getAutoModKeywords(ctx: PlatformContext, guildId: string): Promise<string[]> {
  return (await ctx.db.get('automod_keywords', guildId))?.keywords ?? [];
}

/**
 * Sets a guild's blocked keywords (an empty list removes the rule).
 * @example await setAutoModKeywords(ctx, guildId, ['spoilers', 'cheat*']);
 */
export async function setAutoModKeywords(
  ctx: PlatformContext,
  guildId: string,
  keywords: readonly string[],
): Promise<AutoModKeywordsRecord> {
  return write(ctx, ['guilds', 'automod_keywords'], async (tx) => {
    if (!(await tx.store('guilds').get(guildId))) throw ApiError.of('UNKNOWN_GUILD');
    const record: AutoModKeywordsRecord = {
      guild_id: guildId,
      keywords: [...new Set(keywords)],
      updated_at: ctx.clock.now(),
    };
    if (record.keywords.length === 0) await tx.store('automod_keywords').delete(guildId);
    else await tx.store('automod_keywords').put(record);
    return record;
  });
}

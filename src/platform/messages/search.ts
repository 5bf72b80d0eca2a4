/**
 * Search Guild Messages (`GET /guilds/{id}/messages/search`): filters by content, author,
 * channel, mentions and what a message has (`has`: file, image, video, sound, embed, link, poll,
 * snapshot, sticker; `-` negates), sorted by timestamp or relevance. The caller needs
 * READ_MESSAGE_HISTORY (only channels where it has it are searched) and, for a bot, the
 * MESSAGE_CONTENT privileged intent; a guild whose index is not ready is 400 110000.
 */
import { isThreadType, THREAD_TYPES } from '../../store/records/threads';
import * as v from 'valibot';
import { snowflakeSchema } from '../core/schema-parts';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { channelPermissions, loadGuildView, requireMember } from '../guilds/access';
import {
  MESSAGE_SEARCH_CONTENT_MAX,
  MESSAGE_SEARCH_IDS_MAX,
  MESSAGE_SEARCH_LIMIT_MAX,
  MESSAGE_SEARCH_OFFSET_MAX,
} from '../core/limits';
import { messageGuildReader } from './access';
import { channelKeyRange } from './keys';
import type { ChannelMessageRecord } from '../../store/records/messages';
import { contentReaderOf, messagesForReader } from './reads';
import { isIndexReady } from './search-index';
import type { ChannelMessage } from './wire';
import { PERMISSIONS, hasPermission } from '../core/permissions';

const snowflake = snowflakeSchema;
const ids = v.optional(
  v.pipe(
    v.array(snowflake),
    v.maxLength(MESSAGE_SEARCH_IDS_MAX, `Must be ${MESSAGE_SEARCH_IDS_MAX} or fewer in length.`),
  ),
);
const int = (min: number, max: number) =>
  v.pipe(v.string(), v.regex(/^\d+$/, 'Value is not int.'), v.transform(Number), v.minValue(min), v.maxValue(max));
const HAS = ['image', 'sound', 'video', 'file', 'sticker', 'embed', 'link', 'poll', 'snapshot'] as const;

/** The query string, with repeatable parameters as arrays. */
export const MessageSearchQuerySchema = v.object({
  content: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(MESSAGE_SEARCH_CONTENT_MAX, `Must be ${MESSAGE_SEARCH_CONTENT_MAX} or fewer in length.`),
    ),
  ),
  author_id: ids,
  channel_id: ids,
  mentions: ids,
  author_type: v.optional(v.array(v.picklist(['user', 'bot', '-user', '-bot', 'webhook', '-webhook']))),
  has: v.optional(v.array(v.picklist([...HAS, ...HAS.map((h) => `-${h}` as const)]))),
  pinned: v.optional(
    v.pipe(
      v.picklist(['true', 'false']),
      v.transform((s) => s === 'true'),
    ),
  ),
  min_id: v.optional(snowflake),
  max_id: v.optional(snowflake),
  sort_by: v.optional(v.picklist(['timestamp', 'relevance']), 'timestamp'),
  sort_order: v.optional(v.picklist(['asc', 'desc']), 'desc'),
  limit: v.optional(int(1, MESSAGE_SEARCH_LIMIT_MAX), String(MESSAGE_SEARCH_LIMIT_MAX)),
  offset: v.optional(int(0, MESSAGE_SEARCH_OFFSET_MAX), '0'),
});
export type MessageSearchQuery = v.InferOutput<typeof MessageSearchQuerySchema>;

/** A message as a search answers it: `hit` marks the message that matched (every one here). */
export type SearchHit = ChannelMessage & { hit: true };

/** The answer: `messages` is an array of one-message arrays, as the platform answers it. */
export interface MessageSearchResult {
  doing_deep_historical_index: boolean;
  total_results: number;
  messages: SearchHit[][];
  threads: never[];
  members: never[];
}

/** Whether a message has one kind of thing (`has`). */
function has(m: ChannelMessageRecord, kind: (typeof HAS)[number]): boolean {
  const types = m.attachments.map((a) => a.content_type);
  switch (kind) {
    case 'file':
      return m.attachments.length > 0;
    case 'image':
      return types.some((t) => t.startsWith('image/')) || m.embeds.some((e) => e.image);
    case 'video':
      return types.some((t) => t.startsWith('video/'));
    case 'sound':
      return types.some((t) => t.startsWith('audio/'));
    case 'embed':
      return m.embeds.length > 0;
    case 'link':
      return /https?:\/\/\S/.test(m.content);
    case 'poll':
      return m.poll !== undefined;
    case 'snapshot':
      return m.message_snapshots !== undefined;
    case 'sticker':
      return false;
  }
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);

/** How many of the query's words the content has (0 when one is missing: no match). */
function relevance(m: ChannelMessageRecord, tokens: readonly string[]): number {
  const found = words(m.content);
  const counts = tokens.map((t) => found.filter((w) => w === t).length);
  return counts.every((n) => n > 0) ? counts.reduce((a, b) => a + b, 0) : 0;
}

/** True when the message passes every filter but content. */
function matches(m: ChannelMessageRecord, q: MessageSearchQuery, authorIsBot: (id: string) => boolean): boolean {
  if (q.author_id && !q.author_id.includes(m.author_id)) return false;
  if (q.mentions && !q.mentions.some((id) => m.mention_ids.includes(id))) return false;
  if (q.pinned !== undefined && (m.pinned_at !== undefined) !== q.pinned) return false;
  if (q.min_id !== undefined && BigInt(m.id) <= BigInt(q.min_id)) return false;
  if (q.max_id !== undefined && BigInt(m.id) >= BigInt(q.max_id)) return false;
  for (const h of q.has ?? [])
    if (h.startsWith('-') ? has(m, h.slice(1) as (typeof HAS)[number]) : !has(m, h as (typeof HAS)[number]))
      return false;
  for (const t of q.author_type ?? []) {
    const kind = m.webhook_id ? 'webhook' : authorIsBot(m.author_id) ? 'bot' : 'user';
    if (t.startsWith('-') ? kind === t.slice(1) : kind !== t) return false;
  }
  return true;
}

/**
 * Searches the guild's messages the caller may read.
 * @example await searchGuildMessages(ctx, principal, guildId, validate(MessageSearchQuerySchema, query))
 */
export async function searchGuildMessages(
  ctx: PlatformContext,
  principal: Principal,
  guildId: string,
  q: MessageSearchQuery,
): Promise<MessageSearchResult> {
  const reader = await contentReaderOf(ctx, principal);
  if (!reader.contentIntent) throw ApiError.of('MISSING_ACCESS', 'Search needs the MESSAGE_CONTENT privileged intent.');
  const tx = ctx.db.read([
    'guilds',
    'roles',
    'members',
    'channels',
    'users',
    'channel_messages',
    'message_reactions',
    'poll_votes',
    'message_search_indexes',
  ]);
  const view = await loadGuildView(messageGuildReader(tx), guildId, principal.user.id);
  requireMember(view);
  if (!isIndexReady(await tx.store('message_search_indexes').get(guildId), ctx.clock.now()))
    throw ApiError.of('INDEX_NOT_READY');
  const channels = await tx.store('channels').index('by_guild').getAll(guildId);
  const readable = new Set(
    channels
      // Threads are searched with their parent when public; private threads are left out.
      .filter((c) => {
        const source = isThreadType(c.type)
          ? c.type === THREAD_TYPES.PRIVATE_THREAD
            ? undefined
            : channels.find((p) => p.id === c.parent_id)
          : c;
        return (
          !!source &&
          hasPermission(channelPermissions(view, source), PERMISSIONS.VIEW_CHANNEL | PERMISSIONS.READ_MESSAGE_HISTORY)
        );
      })
      .map((c) => c.id),
  );
  if (readable.size === 0) throw ApiError.of('MISSING_PERMISSIONS');
  const all = await tx.store('channel_messages').index('by_guild').getAll(channelKeyRange(guildId));
  const bots = new Set(
    (await Promise.all([...new Set(all.map((m) => m.author_id))].map((id) => tx.store('users').get(id)))).flatMap(
      (u) => (u?.bot ? [u.id] : []),
    ),
  );
  const tokens = words(q.content ?? '');
  const scored = all
    .filter(
      (m) =>
        readable.has(m.channel_id) &&
        (!q.channel_id || q.channel_id.includes(m.channel_id)) &&
        matches(m, q, (id) => bots.has(id)),
    )
    .map((m) => ({ m, score: tokens.length === 0 ? 1 : relevance(m, tokens) }))
    .filter((s) => s.score > 0);
  if (q.sort_by === 'relevance') scored.sort((a, b) => b.score - a.score || b.m.created_at - a.m.created_at);
  else if (q.sort_order === 'asc') scored.reverse();
  const page = scored.slice(q.offset, q.offset + q.limit).map((s) => s.m);
  const messages = await messagesForReader(tx, page, reader);
  return {
    doing_deep_historical_index: false,
    total_results: scored.length,
    messages: messages.map((m) => [{ ...m, hit: true as const }]),
    threads: [],
    members: [],
  };
}

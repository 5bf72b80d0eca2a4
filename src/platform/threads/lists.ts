/**
 * Thread lists: a guild's active threads, a channel's archived public and private threads, the
 * private archived threads the current user has joined, and the search of a channel's threads.
 * Each lists only threads the caller can view, as the platform clock finds them (a thread past
 * its auto-archive time is archived), with the caller's own thread memberships.
 */
import type { ChannelRecord } from '../../store/records/core';
import type { ThreadMember } from '../../store/records/dispatches';
import { THREAD_TYPES, type ThreadMemberRecord } from '../../store/records/threads';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { ARCHIVED_THREADS_PAGE_DEFAULT } from '../core/limits';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { canViewChannel, channelPermissions, loadGuildView, requireMember, type GuildView } from '../guilds/access';
import type { ReadTx } from '../../store/schema';
import { canViewThread, isThread, THREAD_STORES, threadGuildReader } from './access';
import { metadataAt, serializeThread, type ThreadRecord } from './wire';
import { serializeThreadMember } from './member-wire';
import type { Channel } from '../../store/records/core';

/** A page of threads with the caller's memberships of them. */
export interface ThreadsPage {
  threads: Channel[];
  members: ThreadMember[];
  has_more: boolean;
}

const byIdDesc = (a: { id: string }, b: { id: string }) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1);

/** The page's answer: the threads and the caller's memberships of them. */
async function pageOf(
  tx: ReadTx,
  userId: string,
  threads: ThreadRecord[],
  hasMore: boolean,
  now: number,
): Promise<ThreadsPage> {
  const mine = await Promise.all(threads.map((t) => tx.store('thread_members').get([t.id, userId])));
  return {
    threads: threads.map((t) => serializeThread(t, now)),
    members: mine.flatMap((m) => (m ? [serializeThreadMember(m)] : [])),
    has_more: hasMore,
  };
}

/** The threads of a guild the viewer can see. */
async function visibleThreads(tx: ReadTx, view: GuildView): Promise<ThreadRecord[]> {
  const channels = await tx.store('channels').index('by_guild').getAll(view.guild.id);
  const byId = new Map(channels.map((c) => [c.id, c] as const));
  const threads = channels.filter(isThread);
  const joined = await Promise.all(threads.map((t) => tx.store('thread_members').get([t.id, view.userId])));
  return threads.filter((t, i) => canViewThread(view, t, t.parent_id ? byId.get(t.parent_id) : undefined, !!joined[i]));
}

/**
 * The active threads (as of `now`) among a guild's channels that the viewer can see, as
 * GUILD_CREATE lists them; `membership` reads the viewer's own thread memberships.
 */
export async function activeThreadsFor(
  view: GuildView,
  channels: readonly ChannelRecord[],
  membership: (threadId: string) => Promise<ThreadMemberRecord | undefined>,
  now: number,
): Promise<Channel[]> {
  const byId = new Map(channels.map((c) => [c.id, c] as const));
  const active = channels.filter((c): c is ThreadRecord => isThread(c) && !metadataAt(c, now).archived);
  const joined = await Promise.all(
    active.map((t) => (t.type === THREAD_TYPES.PRIVATE_THREAD ? membership(t.id) : undefined)),
  );
  return active
    .filter((t, i) => canViewThread(view, t, t.parent_id ? byId.get(t.parent_id) : undefined, !!joined[i]))
    .map((t) => serializeThread(t, now));
}

/** `GET /guilds/{id}/threads/active`: the active threads the caller can see, newest first. */
export async function listActiveGuildThreads(
  ctx: PlatformContext,
  principal: Principal,
  guildId: string,
): Promise<ThreadsPage> {
  const now = ctx.clock.now();
  const tx = ctx.db.read(THREAD_STORES);
  const view = await loadGuildView(threadGuildReader(tx), guildId, principal.user.id);
  requireMember(view);
  const active = (await visibleThreads(tx, view)).filter((t) => !metadataAt(t, now).archived).sort(byIdDesc);
  return pageOf(tx, principal.user.id, active, false, now);
}

/** A text or announcement channel the caller can view, its permissions, and its threads they can see. */
async function channelThreads(
  tx: ReadTx,
  userId: string,
  channelId: string,
): Promise<{ parent: ChannelRecord; bits: bigint; threads: ThreadRecord[] }> {
  const parent = await tx.store('channels').get(channelId);
  if (!parent || !parent.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  const view = await loadGuildView(threadGuildReader(tx), parent.guild_id, userId);
  requireMember(view);
  if (!canViewChannel(view, parent)) throw ApiError.of('MISSING_ACCESS');
  if (isThread(parent)) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
  const threads = (await visibleThreads(tx, view)).filter((t) => t.parent_id === channelId);
  return { parent, bits: channelPermissions(view, parent), threads };
}

/** Archived threads newest archive first, before `before` (epoch ms), a page of `limit`. */
function archivedPage(threads: ThreadRecord[], now: number, before: number | undefined, limit: number) {
  const archived = threads
    .map((t) => ({ t, at: metadataAt(t, now) }))
    .filter(({ at }) => at.archived && (before === undefined || at.archive_timestamp < before))
    .sort((a, b) => b.at.archive_timestamp - a.at.archive_timestamp || byIdDesc(a.t, b.t))
    .map(({ t }) => t);
  return { page: archived.slice(0, limit), hasMore: archived.length > limit };
}

/**
 * `GET /channels/{id}/threads/archived/public` (`private` false; READ_MESSAGE_HISTORY) and
 * `.../archived/private` (`private` true; READ_MESSAGE_HISTORY and MANAGE_THREADS): newest
 * archive first, `before` an archive time, `limit` 1 to 100 (50).
 */
export async function listArchivedThreads(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  privateThreads: boolean,
  query: { before?: number; limit?: number },
): Promise<ThreadsPage> {
  const now = ctx.clock.now();
  const tx = ctx.db.read(THREAD_STORES);
  const { bits, threads } = await channelThreads(tx, principal.user.id, channelId);
  const needed = PERMISSIONS.READ_MESSAGE_HISTORY | (privateThreads ? PERMISSIONS.MANAGE_THREADS : 0n);
  if (!hasPermission(bits, needed)) throw ApiError.of('MISSING_PERMISSIONS');
  const kind = threads.filter((t) => (t.type === THREAD_TYPES.PRIVATE_THREAD) === privateThreads);
  const { page, hasMore } = archivedPage(kind, now, query.before, query.limit ?? ARCHIVED_THREADS_PAGE_DEFAULT);
  return pageOf(tx, principal.user.id, page, hasMore, now);
}

/**
 * `GET /channels/{id}/users/@me/threads/archived/private`: the archived private threads the
 * caller has joined (READ_MESSAGE_HISTORY), newest id first, `before` a thread id.
 */
export async function listJoinedPrivateArchivedThreads(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  query: { before?: string; limit?: number },
): Promise<ThreadsPage> {
  const now = ctx.clock.now();
  const tx = ctx.db.read(THREAD_STORES);
  const { bits, threads } = await channelThreads(tx, principal.user.id, channelId);
  if (!hasPermission(bits, PERMISSIONS.READ_MESSAGE_HISTORY)) throw ApiError.of('MISSING_PERMISSIONS');
  const joined = await Promise.all(threads.map((t) => tx.store('thread_members').get([t.id, principal.user.id])));
  const before = query.before === undefined ? null : BigInt(query.before);
  const mine = threads
    .filter((t, i) => joined[i] && t.type === THREAD_TYPES.PRIVATE_THREAD && metadataAt(t, now).archived)
    .filter((t) => before === null || BigInt(t.id) < before)
    .sort(byIdDesc);
  const limit = query.limit ?? ARCHIVED_THREADS_PAGE_DEFAULT;
  return pageOf(tx, principal.user.id, mine.slice(0, limit), mine.length > limit, now);
}

/** The query of a thread search. */
export interface ThreadSearchQuery {
  name?: string;
  archived?: boolean;
  sort_by?: 'last_message_time' | 'archive_time' | 'relevance' | 'creation_time';
  sort_order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
  min_id?: string;
  max_id?: string;
}

/**
 * `GET /channels/{id}/threads/search`: the channel's threads the caller can see
 * (READ_MESSAGE_HISTORY) whose name holds `name` (any case), archived or not when asked,
 * between `min_id` and `max_id`; sorted by last message, archive or creation time (`relevance`
 * is creation time here), newest first unless `asc`; `offset` and `limit` (25) page them.
 */
export async function searchThreads(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  query: ThreadSearchQuery,
): Promise<ThreadsPage & { total_results: number }> {
  const now = ctx.clock.now();
  const tx = ctx.db.read(THREAD_STORES);
  const { bits, threads } = await channelThreads(tx, principal.user.id, channelId);
  if (!hasPermission(bits, PERMISSIONS.READ_MESSAGE_HISTORY)) throw ApiError.of('MISSING_PERMISSIONS');
  const needle = query.name?.toLowerCase();
  const min = query.min_id === undefined ? null : BigInt(query.min_id);
  const max = query.max_id === undefined ? null : BigInt(query.max_id);
  const key = (t: ThreadRecord): bigint => {
    if (query.sort_by === 'archive_time') return BigInt(metadataAt(t, now).archive_timestamp);
    if (query.sort_by === 'last_message_time' && t.last_message_id) return BigInt(t.last_message_id);
    return BigInt(t.id);
  };
  const found = threads
    .filter((t) => needle === undefined || (t.name ?? '').toLowerCase().includes(needle))
    .filter((t) => query.archived === undefined || metadataAt(t, now).archived === query.archived)
    .filter((t) => (min === null || BigInt(t.id) > min) && (max === null || BigInt(t.id) < max))
    .sort((a, b) => {
      const order = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
      return query.sort_order === 'asc' ? order : -order;
    });
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 25;
  const page = found.slice(offset, offset + limit);
  return {
    ...(await pageOf(tx, principal.user.id, page, found.length > offset + limit, now)),
    total_results: found.length,
  };
}

/**
 * Who may do what in a thread. A thread has no overwrites of its own: a user's permissions in
 * it are those in its parent channel. A public thread is visible to whoever can view the
 * parent; a private thread only to its members and to those with MANAGE_THREADS.
 */
import type { PlatformStoreName, ReadTx } from '../../store/schema';
import type { ChannelRecord } from '../../store/records/core';
import { isThreadType, THREAD_TYPES, type ThreadMemberRecord } from '../../store/records/threads';
import { ApiError } from '../core/errors';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { channelPermissions, loadGuildView, type GuildStoreReader, type GuildView } from '../guilds/access';
import type { ThreadRecord } from './wire';

/** The stores every thread operation reads (writes add `audit_log_entries` where they log). */
export const THREAD_STORES: PlatformStoreName[] = [
  'channels',
  'guilds',
  'roles',
  'members',
  'users',
  'thread_members',
  'channel_messages',
];

/** True when the channel record is a thread. */
export function isThread(channel: ChannelRecord | undefined): channel is ThreadRecord {
  return !!channel && isThreadType(channel.type) && !!channel.thread_metadata;
}

/** The channel whose overwrites give permissions in `channel`: a thread's parent, else itself. */
export function permissionSource(
  channel: ChannelRecord,
  parentOf: (id: string) => ChannelRecord | undefined,
): ChannelRecord | undefined {
  if (!isThreadType(channel.type)) return channel;
  return channel.parent_id ? parentOf(channel.parent_id) : undefined;
}

/**
 * Whether the viewer sees the thread: VIEW_CHANNEL in its parent, and for a private thread
 * membership or MANAGE_THREADS.
 */
export function canViewThread(
  view: GuildView,
  thread: Pick<ChannelRecord, 'type'>,
  parent: ChannelRecord | undefined,
  isMember: boolean,
): boolean {
  if (!parent || !view.member) return false;
  const bits = channelPermissions(view, parent);
  if (!hasPermission(bits, PERMISSIONS.VIEW_CHANNEL)) return false;
  return thread.type !== THREAD_TYPES.PRIVATE_THREAD || isMember || hasPermission(bits, PERMISSIONS.MANAGE_THREADS);
}

/** A guild reader over a transaction of any mode. */
export function threadGuildReader(tx: ReadTx): GuildStoreReader {
  return {
    guild: (id) => tx.store('guilds').get(id),
    roles: (guildId) => tx.store('roles').index('by_guild').getAll(guildId),
    member: (guildId, userId) => tx.store('members').get([guildId, userId]),
  };
}

/** A thread as one user sees it. */
export interface ThreadAccess {
  thread: ThreadRecord;
  parent: ChannelRecord;
  view: GuildView;
  /** The user's permissions in the thread (its parent's). */
  permissions: bigint;
  /** The user's own membership of the thread, if any. */
  membership: ThreadMemberRecord | undefined;
}

/**
 * The thread and the user's standing in it: an unknown channel is 404 10003, a channel that is
 * not a thread 400 50024.
 */
export async function loadThreadAccess(tx: ReadTx, threadId: string, userId: string): Promise<ThreadAccess> {
  const thread = await tx.store('channels').get(threadId);
  if (!thread || !thread.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  if (!isThread(thread)) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
  const [parent, view, membership] = await Promise.all([
    thread.parent_id ? tx.store('channels').get(thread.parent_id) : undefined,
    loadGuildView(threadGuildReader(tx), thread.guild_id, userId),
    tx.store('thread_members').get([threadId, userId]),
  ]);
  if (!parent) throw ApiError.of('UNKNOWN_CHANNEL');
  return { thread, parent, view, permissions: channelPermissions(view, parent), membership };
}

/** Throws 403 50001 unless the user sees the thread. */
export function requireThreadView(access: ThreadAccess): void {
  if (!canViewThread(access.view, access.thread, access.parent, !!access.membership))
    throw ApiError.of('MISSING_ACCESS');
}

/** True when the user may moderate threads here (MANAGE_THREADS in the parent). */
export function managesThreads(access: Pick<ThreadAccess, 'permissions'>): boolean {
  return hasPermission(access.permissions, PERMISSIONS.MANAGE_THREADS);
}

/**
 * True when the channel exists and is a thread: `PATCH` / `DELETE /channels/{id}` then edit or
 * delete it as a thread (`editThread`, `deleteThread`) rather than as a guild channel.
 * @example if (await isThreadChannel(ctx.db, channelId)) return editThread(ctx, principal, channelId, edit);
 */
export async function isThreadChannel(
  db: { get(store: 'channels', id: string): Promise<ChannelRecord | undefined> },
  channelId: string,
): Promise<boolean> {
  return isThread(await db.get('channels', channelId));
}

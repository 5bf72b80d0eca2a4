/**
 * What a gateway session receives of threads: a thread's events (and its messages' events) only
 * when the session's user can view the thread, as the HTTP routes decide it (the parent's
 * VIEW_CHANNEL; for a private thread membership or MANAGE_THREADS). THREAD_MEMBERS_UPDATE goes,
 * without the GUILD_MEMBERS intent, only to the users it adds or removes; a removed user is
 * told even when the thread is private. THREAD_DELETE names only the parent, which decides.
 * When a session's user gains access to a channel, THREAD_LIST_SYNC brings its active threads.
 */
import type { EventRecord } from '../../store/schema';
import type { ChannelRecord } from '../../store/records/core';
import { isThreadType, THREAD_TYPES, type ThreadMemberRecord } from '../../store/records/threads';
import { INTENTS } from '../core/intents';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { canViewChannel, channelPermissions, type GuildView } from '../guilds/access';
import type { ThreadListSync } from '../../store/records/dispatches';
import { canViewThread, isThread } from './access';
import { serializeThreadMember } from './member-wire';
import { serializeThread, type ThreadRecord } from './wire';

/** The guild state the check reads (the gateway's cached reader has it). */
export interface ThreadVisibilityReader {
  view(guildId: string, userId: string): Promise<GuildView | undefined>;
  channels(guildId: string): Promise<ChannelRecord[]>;
  threadMember(threadId: string, userId: string): Promise<ThreadMemberRecord | undefined>;
}

/**
 * Whether the viewer sees a guild channel: its own overwrites for a channel, its parent's and
 * its membership for a thread.
 * @example if (await canViewGuildChannel(reader, view, channel, channels)) deliver();
 */
export async function canViewGuildChannel(
  reader: Pick<ThreadVisibilityReader, 'threadMember'>,
  view: GuildView,
  channel: Pick<ChannelRecord, 'id' | 'type' | 'parent_id' | 'permission_overwrites'>,
  channels: readonly ChannelRecord[],
): Promise<boolean> {
  if (!isThreadType(channel.type)) return canViewChannel(view, channel);
  const parent = channels.find((c) => c.id === channel.parent_id);
  const member = channel.type === THREAD_TYPES.PRIVATE_THREAD && !!(await reader.threadMember(channel.id, view.userId));
  return canViewThread(view, channel, parent, member);
}

const THREAD_EVENTS: ReadonlySet<EventRecord['type']> = new Set([
  'THREAD_CREATE',
  'THREAD_UPDATE',
  'THREAD_DELETE',
  'THREAD_MEMBERS_UPDATE',
]);

/** The session as the check needs it. */
export interface ThreadSessionInfo {
  user_id: string;
  intents: number;
}

/**
 * False when the session may not receive this thread event (true for every other event).
 * @example if (!(await threadEventShown(session.record, event, reader))) return [];
 */
export async function threadEventShown(
  session: ThreadSessionInfo,
  event: EventRecord,
  reader: ThreadVisibilityReader,
): Promise<boolean> {
  if (!THREAD_EVENTS.has(event.type)) return true;
  const data = event.data as { id: string; guild_id: string; parent_id?: string | null; type?: number };
  const view = await reader.view(data.guild_id, session.user_id);
  if (!view?.member) return false;
  const channels = await reader.channels(data.guild_id);
  if (event.type === 'THREAD_DELETE') {
    const parent = channels.find((c) => c.id === data.parent_id);
    if (!parent) return false;
    const bits = channelPermissions(view, parent);
    return (
      hasPermission(bits, PERMISSIONS.VIEW_CHANNEL) &&
      (data.type !== THREAD_TYPES.PRIVATE_THREAD || hasPermission(bits, PERMISSIONS.MANAGE_THREADS))
    );
  }
  const thread = channels.find((c) => c.id === data.id);
  if (!thread) return false;
  if (event.type === 'THREAD_MEMBERS_UPDATE') {
    const added = (event.data.added_members ?? []).some((m) => m.user_id === session.user_id);
    const removed = (event.data.removed_member_ids ?? []).includes(session.user_id);
    if (!added && !removed && (session.intents & INTENTS.GUILD_MEMBERS) === 0) return false;
    if (removed)
      return canViewThread(
        view,
        { type: THREAD_TYPES.PUBLIC_THREAD },
        channels.find((c) => c.id === thread.parent_id),
        false,
      );
  }
  return canViewGuildChannel(reader, view, thread, channels);
}

/**
 * THREAD_LIST_SYNC for a session whose user just gained access to `channelIds`: their active
 * threads (as stored) the user can view, and the user's memberships of them.
 * @example const sync = await threadListSync(reader, view, channels, [channel.id]);
 */
export async function threadListSync(
  reader: Pick<ThreadVisibilityReader, 'threadMember'>,
  view: GuildView,
  channels: readonly ChannelRecord[],
  channelIds: string[],
): Promise<ThreadListSync> {
  const threads = channels.filter(
    (c): c is ThreadRecord => isThread(c) && channelIds.includes(c.parent_id ?? '') && !c.thread_metadata.archived,
  );
  const shown: ThreadRecord[] = [];
  const members: ThreadListSync['members'] = [];
  for (const thread of threads) {
    if (!(await canViewGuildChannel(reader, view, thread, channels))) continue;
    shown.push(thread);
    const own = await reader.threadMember(thread.id, view.userId);
    if (own) members.push(serializeThreadMember(own));
  }
  return { guild_id: view.guild.id, channel_ids: channelIds, threads: shown.map((t) => serializeThread(t)), members };
}

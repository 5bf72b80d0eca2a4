/**
 * Starting threads: from a message (a public thread, or an announcement thread in an
 * announcement channel, whose id is the message's: one thread per message, 400 160004 after)
 * and without one (public, private or announcement, by the parent's type). CREATE_PUBLIC_THREADS
 * or CREATE_PRIVATE_THREADS in the parent; auto_archive_duration one of 60, 1440, 4320, 10080
 * minutes (a day unless asked); at most 1000 active threads per guild. The creator joins it.
 * Logs THREAD_CREATE (`newly_created`), THREAD_MEMBERS_UPDATE, MESSAGE_UPDATE of a starter
 * message (flag HAS_THREAD) and the audit log's THREAD_CREATE. Forum and media channels take
 * no thread here (400 50024): their posts are not implemented.
 */
import type * as v from 'valibot';
import { write, type Emit, type WriteTx } from '../../store/write';
import { CHANNEL_TYPES, type ChannelRecord } from '../../store/records/core';
import { THREAD_TYPES, type ThreadMemberRecord } from '../../store/records/threads';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { ACTIVE_THREADS_MAX, THREAD_AUTO_ARCHIVE_DEFAULT } from '../core/limits';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { canViewChannel, channelPermissions, loadGuildView, requireMember, type GuildView } from '../guilds/access';
import { appendAuditLogEntry, AUDIT_LOG_EVENTS } from '../guilds/audit-log';
import { messageAudience, messageEventData } from '../messages/events';
import { messageOrderKey } from '../messages/keys';
import { loadUsers, serializeChannelMessage, userIdsOf } from '../messages/wire';
import { isThread, THREAD_STORES, threadGuildReader } from './access';
import { threadAudience } from './events';
import type { StartThreadFromMessageSchema, StartThreadSchema } from './schemas';
import { isArchivedAt, serializeThread, type ThreadRecord } from './wire';
import { serializeThreadMember } from './member-wire';
import type { Channel } from '../../store/records/core';
import type { ThreadMember } from '../../store/records/dispatches';

/** The message flag HAS_THREAD: a thread was started from the message. */
export const HAS_THREAD_FLAG = 1 << 5;

/** The stores a thread write touches. */
export const THREAD_WRITE_STORES = [...THREAD_STORES, 'audit_log_entries'] as const;

/** A started thread as the routes answer it: the thread with the creator's membership. */
export type StartedThread = Channel & { member: ThreadMember };

/** The parent channel a thread may start in (text or announcement), and the creator's permissions there. */
async function loadParent(
  tx: WriteTx,
  channelId: string,
  userId: string,
): Promise<{ parent: ChannelRecord; view: GuildView; bits: bigint }> {
  const parent = await tx.store('channels').get(channelId);
  if (!parent || !parent.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  const view = await loadGuildView(threadGuildReader(tx), parent.guild_id, userId);
  requireMember(view);
  if (!canViewChannel(view, parent)) throw ApiError.of('MISSING_ACCESS');
  if (
    isThread(parent) ||
    (parent.type !== CHANNEL_TYPES.GUILD_TEXT && parent.type !== CHANNEL_TYPES.GUILD_ANNOUNCEMENT)
  )
    throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
  return { parent, view, bits: channelPermissions(view, parent) };
}

/** Throws 400 160006 when the guild already has 1000 active threads. */
async function requireActiveRoom(tx: WriteTx, guildId: string, now: number): Promise<void> {
  const channels = await tx.store('channels').index('by_guild').getAll(guildId);
  const active = channels.filter((c) => isThread(c) && !isArchivedAt(c, now)).length;
  if (active >= ACTIVE_THREADS_MAX) throw ApiError.of('ACTIVE_THREADS_MAX');
}

/** What a new thread is. */
interface NewThread {
  id: string;
  type: number;
  parent: ChannelRecord;
  ownerId: string;
  name: string;
  autoArchive: number | null | undefined;
  slowmode: number | null | undefined;
  invitable?: boolean;
  /** The audit log reason (`X-Audit-Log-Reason`). */
  reason?: string;
}

/** Stores the thread and its creator's membership, logs its events and audit entry; the answer. */
async function storeThread(ctx: PlatformContext, tx: WriteTx, emit: Emit, input: NewThread): Promise<StartedThread> {
  const now = ctx.clock.now();
  const guildId = input.parent.guild_id!;
  const thread: ThreadRecord = {
    id: input.id,
    type: input.type,
    guild_id: guildId,
    name: input.name,
    parent_id: input.parent.id,
    position: 0,
    flags: 0,
    permission_overwrites: [],
    topic: null,
    rate_limit_per_user: input.slowmode ?? 0,
    owner_id: input.ownerId,
    thread_metadata: {
      archived: false,
      auto_archive_duration: input.autoArchive ?? THREAD_AUTO_ARCHIVE_DEFAULT,
      archive_timestamp: now,
      locked: false,
      create_timestamp: now,
      ...(input.invitable !== undefined ? { invitable: input.invitable } : {}),
    },
    member_count: 1,
    message_count: 0,
    total_message_sent: 0,
    last_message_id: null,
    thread_activity_at: now,
  };
  const membership: ThreadMemberRecord = {
    thread_id: thread.id,
    user_id: input.ownerId,
    guild_id: guildId,
    join_timestamp: now,
    flags: 0,
  };
  await tx.store('channels').add(thread);
  await tx.store('thread_members').add(membership);
  const wire = serializeThread(thread, now);
  const member = serializeThreadMember(membership);
  emit({ type: 'THREAD_CREATE', data: { ...wire, newly_created: true }, audience: threadAudience(guildId) });
  emit({
    type: 'THREAD_MEMBERS_UPDATE',
    data: { id: thread.id, guild_id: guildId, member_count: 1, added_members: [member] },
    audience: threadAudience(guildId),
  });
  await appendAuditLogEntry(ctx, tx, {
    guild_id: guildId,
    action_type: AUDIT_LOG_EVENTS.THREAD_CREATE,
    user_id: input.ownerId,
    target_id: thread.id,
    changes: [
      { key: 'name', new_value: thread.name },
      { key: 'type', new_value: thread.type },
      { key: 'archived', new_value: false },
      { key: 'locked', new_value: false },
      { key: 'auto_archive_duration', new_value: thread.thread_metadata.auto_archive_duration },
      { key: 'rate_limit_per_user', new_value: thread.rate_limit_per_user },
      ...(input.invitable !== undefined ? [{ key: 'invitable', new_value: input.invitable }] : []),
    ],
    ...(input.reason ? { reason: input.reason } : {}),
  });
  return { ...wire, member };
}

/**
 * `POST /channels/{id}/messages/{message_id}/threads`: a public thread (an announcement thread
 * in an announcement channel) with the message's id.
 * @example const thread = await startThreadFromMessage(ctx, principal, channelId, messageId, { name: 'Talk' });
 */
export async function startThreadFromMessage(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  messageId: string,
  input: v.InferOutput<typeof StartThreadFromMessageSchema>,
  reason?: string,
): Promise<StartedThread> {
  return write(ctx, THREAD_WRITE_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const { parent, view, bits } = await loadParent(tx, channelId, principal.user.id);
    if (!hasPermission(bits, PERMISSIONS.CREATE_PUBLIC_THREADS | PERMISSIONS.READ_MESSAGE_HISTORY))
      throw ApiError.of('MISSING_PERMISSIONS');
    const message = await tx.store('channel_messages').get([channelId, messageOrderKey(messageId)]);
    if (!message) throw ApiError.of('UNKNOWN_MESSAGE');
    if ((message.flags & HAS_THREAD_FLAG) !== 0 || (await tx.store('channels').get(messageId)))
      throw ApiError.of('THREAD_ALREADY_CREATED');
    await requireActiveRoom(tx, view.guild.id, now);
    const type =
      parent.type === CHANNEL_TYPES.GUILD_ANNOUNCEMENT ? THREAD_TYPES.ANNOUNCEMENT_THREAD : THREAD_TYPES.PUBLIC_THREAD;
    const started = await storeThread(ctx, tx, emit, {
      id: message.id,
      type,
      parent,
      ownerId: principal.user.id,
      name: input.name,
      autoArchive: input.auto_archive_duration,
      slowmode: input.rate_limit_per_user,
      reason,
    });
    const flagged = { ...message, flags: message.flags | HAS_THREAD_FLAG };
    await tx.store('channel_messages').put(flagged);
    const users = await loadUsers(tx, userIdsOf([flagged]));
    emit({
      type: 'MESSAGE_UPDATE',
      data: messageEventData(serializeChannelMessage(flagged, users), view.guild.id),
      audience: messageAudience(view.guild.id),
    });
    return started;
  });
}

/**
 * `POST /channels/{id}/threads` in a text channel (a public or private thread; private unless
 * `type` says otherwise) or an announcement channel (an announcement thread); any other type
 * for the channel is 400 50024. A private thread is `invitable` unless told.
 */
export async function startThread(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  input: v.InferOutput<typeof StartThreadSchema>,
  reason?: string,
): Promise<StartedThread> {
  return write(ctx, THREAD_WRITE_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const { parent, view, bits } = await loadParent(tx, channelId, principal.user.id);
    const type = input.type ?? THREAD_TYPES.PRIVATE_THREAD;
    const fits =
      parent.type === CHANNEL_TYPES.GUILD_ANNOUNCEMENT
        ? type === THREAD_TYPES.ANNOUNCEMENT_THREAD
        : type !== THREAD_TYPES.ANNOUNCEMENT_THREAD;
    if (!fits) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    const needed =
      type === THREAD_TYPES.PRIVATE_THREAD ? PERMISSIONS.CREATE_PRIVATE_THREADS : PERMISSIONS.CREATE_PUBLIC_THREADS;
    if (!hasPermission(bits, needed)) throw ApiError.of('MISSING_PERMISSIONS');
    await requireActiveRoom(tx, view.guild.id, now);
    return storeThread(ctx, tx, emit, {
      id: ctx.ids.next(),
      type,
      parent,
      ownerId: principal.user.id,
      name: input.name,
      autoArchive: input.auto_archive_duration,
      slowmode: input.rate_limit_per_user,
      ...(type === THREAD_TYPES.PRIVATE_THREAD ? { invitable: input.invitable ?? true } : {}),
      reason,
    });
  });
}

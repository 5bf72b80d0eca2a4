/**
 * Editing and deleting a thread: what `PATCH /channels/{id}` and `DELETE /channels/{id}` do
 * when the channel is a thread. Unarchiving alone (archived false, not locked) needs only
 * SEND_MESSAGES_IN_THREADS; the creator may rename, archive and change the auto-archive
 * duration of their thread while it is not locked; everything else (locking, `invitable`,
 * slowmode, others' threads) needs MANAGE_THREADS. An archived thread takes no change but its
 * unarchiving (400 50083). Deleting needs MANAGE_THREADS and takes its members and messages.
 * Both log THREAD_UPDATE / THREAD_DELETE and the audit log's entry of the same name.
 */
import type * as v from 'valibot';
import { write } from '../../store/write';
import { THREAD_TYPES } from '../../store/records/threads';
import type { Channel } from '../../store/records/core';
import { keyRange } from '../../store/port';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { appendAuditLogEntry, AUDIT_LOG_EVENTS } from '../guilds/audit-log';
import { loadThreadAccess, managesThreads, requireThreadView } from './access';
import { THREAD_WRITE_STORES } from './create';
import { settleAutoArchive, threadAudience } from './events';
import type { EditThreadSchema } from './schemas';
import { serializeThread, type ThreadRecord } from './wire';

/** The thread fields an edit may change (`EditThreadSchema`'s output). */
export type ThreadEdit = v.InferOutput<typeof EditThreadSchema>;

/** The changes as the audit log records them. */
function changesOf(before: ThreadRecord, after: ThreadRecord) {
  const pairs: [string, unknown, unknown][] = [
    ['name', before.name, after.name],
    ['archived', before.thread_metadata.archived, after.thread_metadata.archived],
    ['locked', before.thread_metadata.locked, after.thread_metadata.locked],
    [
      'auto_archive_duration',
      before.thread_metadata.auto_archive_duration,
      after.thread_metadata.auto_archive_duration,
    ],
    ['invitable', before.thread_metadata.invitable, after.thread_metadata.invitable],
    ['rate_limit_per_user', before.rate_limit_per_user ?? 0, after.rate_limit_per_user ?? 0],
  ];
  return pairs.filter(([, a, b]) => a !== b).map(([key, old_value, new_value]) => ({ key, old_value, new_value }));
}

/**
 * Edits a thread (a thread the caller can see; 400 50024 for another channel). Answers the
 * thread as it is after the edit; an edit that changes nothing logs nothing.
 * @example const thread = await editThread(ctx, principal, threadId, { archived: true, locked: true });
 */
export async function editThread(
  ctx: PlatformContext,
  principal: Principal,
  threadId: string,
  edit: ThreadEdit,
  reason?: string,
): Promise<Channel> {
  return write(ctx, THREAD_WRITE_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadThreadAccess(tx, threadId, principal.user.id);
    requireThreadView(access);
    const thread = await settleAutoArchive(tx, emit, access.thread, now);
    const meta = thread.thread_metadata;
    const manages = managesThreads(access);
    const owner = thread.owner_id === principal.user.id && !meta.locked;
    const onlyUnarchive =
      edit.archived === false &&
      !edit.locked &&
      Object.entries(edit).every(([k, value]) => k === 'archived' || value === undefined || value === null);
    if (onlyUnarchive && !meta.locked) {
      if (!hasPermission(access.permissions, PERMISSIONS.SEND_MESSAGES_IN_THREADS) && !manages)
        throw ApiError.of('MISSING_PERMISSIONS');
    } else if (!manages) {
      const moderatorOnly = [edit.locked, edit.invitable, edit.rate_limit_per_user].some((x) => x != null);
      if (!owner || moderatorOnly) throw ApiError.of('MISSING_PERMISSIONS');
    }
    if (meta.archived && edit.archived !== false) throw ApiError.of('THREAD_ARCHIVED');
    if (edit.invitable != null && thread.type !== THREAD_TYPES.PRIVATE_THREAD)
      throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    const archived = edit.archived ?? meta.archived;
    const next: ThreadRecord = {
      ...thread,
      name: edit.name ?? thread.name,
      rate_limit_per_user: edit.rate_limit_per_user ?? thread.rate_limit_per_user ?? 0,
      thread_metadata: {
        ...meta,
        archived,
        archive_timestamp: archived !== meta.archived ? now : meta.archive_timestamp,
        auto_archive_duration: edit.auto_archive_duration ?? meta.auto_archive_duration,
        locked: edit.locked ?? meta.locked,
        ...(edit.invitable != null ? { invitable: edit.invitable } : {}),
      },
      // Unarchiving starts the inactivity count again.
      ...(meta.archived && !archived ? { thread_activity_at: now } : {}),
    };
    const changes = changesOf(thread, next);
    if (changes.length === 0) return serializeThread(thread, now);
    await tx.store('channels').put(next);
    const wire = serializeThread(next, now);
    emit({ type: 'THREAD_UPDATE', data: wire, audience: threadAudience(thread.guild_id!) });
    await appendAuditLogEntry(ctx, tx, {
      guild_id: thread.guild_id!,
      action_type: AUDIT_LOG_EVENTS.THREAD_UPDATE,
      user_id: principal.user.id,
      target_id: thread.id,
      changes,
      ...(reason ? { reason } : {}),
    });
    return wire;
  });
}

/**
 * Deletes a thread (MANAGE_THREADS), its members, its messages and their attachments' files;
 * answers the thread as it was.
 * @example await deleteThread(ctx, principal, threadId);
 */
export async function deleteThread(
  ctx: PlatformContext,
  principal: Principal,
  threadId: string,
  reason?: string,
): Promise<Channel> {
  return write(ctx, [...THREAD_WRITE_STORES, 'attachment_files'], async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadThreadAccess(tx, threadId, principal.user.id);
    requireThreadView(access);
    if (!managesThreads(access)) throw ApiError.of('MISSING_PERMISSIONS');
    const thread = access.thread;
    const range = keyRange.bound([threadId], [threadId, []]);
    await tx.store('channels').delete(threadId);
    await tx.store('thread_members').delete(range);
    const messages = await tx.store('channel_messages').getAll(range);
    const files = messages.flatMap((m) => [
      ...m.attachments.map((a) => a.id),
      ...(m.message_snapshots ?? []).flatMap((s) => s.message.attachments.map((a) => a.id)),
    ]);
    await tx.store('channel_messages').delete(range);
    await Promise.all(files.map((id) => tx.store('attachment_files').delete(id)));
    emit({
      type: 'THREAD_DELETE',
      data: { id: thread.id, guild_id: thread.guild_id!, parent_id: thread.parent_id, type: thread.type },
      audience: threadAudience(thread.guild_id!),
    });
    await appendAuditLogEntry(ctx, tx, {
      guild_id: thread.guild_id!,
      action_type: AUDIT_LOG_EVENTS.THREAD_DELETE,
      user_id: principal.user.id,
      target_id: thread.id,
      changes: [
        { key: 'name', old_value: thread.name },
        { key: 'type', old_value: thread.type },
      ],
      ...(reason ? { reason } : {}),
    });
    return serializeThread(thread, now);
  });
}

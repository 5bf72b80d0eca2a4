/**
 * A message sent in a thread: SEND_MESSAGES_IN_THREADS instead of SEND_MESSAGES; a locked
 * thread takes messages only from those with MANAGE_THREADS (400 160005, or 400 50083 when it
 * is also archived); an archived thread that is not locked is unarchived by the message
 * (THREAD_UPDATE); and the thread's counters (`message_count`, `total_message_sent`,
 * `last_message_id`) and its inactivity count start again. A deleted message leaves
 * `message_count` (not `total_message_sent`).
 */
import type { Emit, WriteTx } from '../../store/write';
import type { ChannelRecord } from '../../store/records/core';
import { ApiError } from '../core/errors';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { isThread } from './access';
import { settleAutoArchive, threadAudience } from './events';
import { serializeThread, type ThreadRecord } from './wire';

/** The permission that lets one send in `channel`: SEND_MESSAGES_IN_THREADS in a thread. */
export function sendPermissionFor(channel: ChannelRecord): bigint {
  return isThread(channel) ? PERMISSIONS.SEND_MESSAGES_IN_THREADS : PERMISSIONS.SEND_MESSAGES;
}

/**
 * Applies a new message's effects to its thread (nothing for another channel): refuses it in a
 * locked thread unless `permissions` (null: not checked) hold MANAGE_THREADS, unarchives, counts.
 */
export async function noteThreadMessage(
  tx: WriteTx,
  emit: Emit,
  channel: ChannelRecord,
  permissions: bigint | null,
  messageId: string,
  now: number,
): Promise<void> {
  if (!isThread(channel)) return;
  let thread: ThreadRecord = await settleAutoArchive(tx, emit, channel, now);
  const meta = thread.thread_metadata;
  if (meta.locked && permissions !== null && !hasPermission(permissions, PERMISSIONS.MANAGE_THREADS))
    throw ApiError.of(meta.archived ? 'THREAD_ARCHIVED' : 'THREAD_LOCKED');
  if (meta.archived) {
    thread = {
      ...thread,
      thread_metadata: { ...meta, archived: false, archive_timestamp: now },
      thread_activity_at: now,
    };
    emit({ type: 'THREAD_UPDATE', data: serializeThread(thread, now), audience: threadAudience(thread.guild_id!) });
  }
  await tx.store('channels').put({
    ...thread,
    message_count: (thread.message_count ?? 0) + 1,
    total_message_sent: (thread.total_message_sent ?? 0) + 1,
    last_message_id: messageId,
    thread_activity_at: now,
  });
}

/** A message deleted from a thread no longer counts in its `message_count` (`total_message_sent` keeps it). */
export async function forgetThreadMessage(tx: WriteTx, channel: ChannelRecord): Promise<void> {
  if (!isThread(channel)) return;
  await tx.store('channels').put({ ...channel, message_count: Math.max(0, (channel.message_count ?? 0) - 1) });
}

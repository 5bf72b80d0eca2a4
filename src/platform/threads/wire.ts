/**
 * Threads on the wire: the thread channel object (its metadata as the platform clock finds it:
 * a thread past its auto-archive time reads archived even before a write has stored it) and
 * the thread member object.
 */
import type { ChannelRecord, ThreadMetadata, Channel } from '../../store/records/core';
import type { ThreadMetadataRecord } from '../../store/records/threads';

/** A stored thread: a channel record with its thread fields. */
export type ThreadRecord = ChannelRecord & Required<Pick<ChannelRecord, 'thread_metadata' | 'owner_id'>>;

/** When an active thread archives itself: its last activity plus its auto-archive duration. */
export function autoArchiveAt(thread: ThreadRecord): number {
  const from = thread.thread_activity_at ?? thread.thread_metadata.create_timestamp;
  return from + thread.thread_metadata.auto_archive_duration * 60_000;
}

/**
 * The metadata as of `now`: an active thread whose auto-archive time has passed is archived,
 * archived at that time.
 */
export function metadataAt(thread: ThreadRecord, now: number | undefined): ThreadMetadataRecord {
  const meta = thread.thread_metadata;
  if (meta.archived || now === undefined) return meta;
  const at = autoArchiveAt(thread);
  return at <= now ? { ...meta, archived: true, archive_timestamp: at } : meta;
}

/** True when the thread is archived as of `now`. */
export function isArchivedAt(thread: ThreadRecord, now: number): boolean {
  return metadataAt(thread, now).archived;
}

/**
 * The thread channel object as of `now` (as stored when no time is given). A thread has no overwrites, position or topic of its
 * own (its permissions are its parent's), so they are left out.
 */
export function serializeThread(thread: ThreadRecord, now?: number): Channel {
  const {
    voice_status: _status,
    voice_start_time: _start,
    thread_activity_at: _activity,
    permission_overwrites: _overwrites,
    position: _position,
    topic: _topic,
    thread_metadata: _meta,
    ...wire
  } = thread;
  const meta = metadataAt(thread, now);
  const metadata: ThreadMetadata = {
    archived: meta.archived,
    auto_archive_duration: meta.auto_archive_duration as ThreadMetadata['auto_archive_duration'],
    archive_timestamp: new Date(meta.archive_timestamp).toISOString(),
    locked: meta.locked,
    create_timestamp: new Date(meta.create_timestamp).toISOString(),
    ...(meta.invitable !== undefined ? { invitable: meta.invitable } : {}),
  };
  return {
    ...wire,
    rate_limit_per_user: thread.rate_limit_per_user ?? 0,
    member_count: thread.member_count ?? 0,
    message_count: thread.message_count ?? 0,
    total_message_sent: thread.total_message_sent ?? 0,
    last_message_id: thread.last_message_id ?? null,
    thread_metadata: metadata,
  } as Channel;
}

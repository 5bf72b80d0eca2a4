/**
 * Threads as stored. A thread is a channel (in the `channels` store, types 10, 11 and 12) whose
 * record carries its metadata; who is in it lives in `thread_members`. Ids are snowflake strings
 * (`core.ts` imports this file, so the alias is not imported back).
 */

/** The thread channel types (the platform's public values). */
export const THREAD_TYPES = {
  ANNOUNCEMENT_THREAD: 10,
  PUBLIC_THREAD: 11,
  PRIVATE_THREAD: 12,
} as const;

/** True for the thread channel types. */
export function isThreadType(type: number): boolean {
  return type === 10 || type === 11 || type === 12;
}

/** A thread's metadata as stored (times in epoch ms). */
export interface ThreadMetadataRecord {
  archived: boolean;
  /** Minutes of inactivity after which the thread archives itself: 60, 1440, 4320 or 10080. */
  auto_archive_duration: number;
  /** When `archived` last changed (creation until then). */
  archive_timestamp: number;
  locked: boolean;
  /** Private threads: whether members who are not moderators may add others. */
  invitable?: boolean;
  create_timestamp: number;
}

/** One user's membership of a thread. */
export interface ThreadMemberRecord {
  thread_id: string;
  user_id: string;
  guild_id: string;
  join_timestamp: number;
  flags: number;
}

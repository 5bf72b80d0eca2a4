/**
 * The thread member object on the wire.
 */
import type { MemberRecord, UserRecord } from '../../store/records/core';
import type { ThreadMember } from '../../store/records/dispatches';
import type { ThreadMemberRecord } from '../../store/records/threads';
import { serializeMember } from '../guilds/wire';

/** The thread member object; with the guild member when it is given. */
export function serializeThreadMember(
  record: ThreadMemberRecord,
  guildMember?: { member: MemberRecord; user: UserRecord } | null,
): ThreadMember {
  return {
    id: record.thread_id,
    user_id: record.user_id,
    join_timestamp: new Date(record.join_timestamp).toISOString(),
    flags: record.flags,
    ...(guildMember ? { member: serializeMember(guildMember.member, guildMember.user) } : {}),
  };
}

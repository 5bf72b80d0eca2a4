/**
 * The gateway events of threads, all with the GUILDS intent: THREAD_CREATE (`newly_created`
 * when started), THREAD_UPDATE, THREAD_DELETE, THREAD_MEMBER_UPDATE (to the member concerned)
 * and THREAD_MEMBERS_UPDATE (to the guild; the gateway keeps it, without GUILD_MEMBERS, to the
 * users added or removed). The gateway also keeps every one of them to sessions that can view
 * the thread (`visibility.ts`). Also: the auto-archive of a thread whose time the platform
 * clock has passed, stored by the next write that touches it.
 */
import type { EventAudience } from '../../store/schema';
import type { Emit, WriteTx } from '../../store/write';
import { INTENTS } from '../core/intents';
import { autoArchiveAt, serializeThread, type ThreadRecord } from './wire';

/** Who hears of a thread: the guild's sessions with GUILDS. */
export function threadAudience(guildId: string): EventAudience {
  return { guild_id: guildId, intent: INTENTS.GUILDS };
}

/** Who hears of one user's own thread membership: that user (a bot with GUILDS). */
export function threadMemberAudience(userId: string): EventAudience {
  return { user_ids: [userId], bot_intent: INTENTS.GUILDS };
}

/**
 * Stores the auto-archive of `thread` if the clock has passed its time (archived at that time)
 * and logs THREAD_UPDATE; the thread as it now is.
 */
export async function settleAutoArchive(
  tx: WriteTx,
  emit: Emit,
  thread: ThreadRecord,
  now: number,
): Promise<ThreadRecord> {
  if (thread.thread_metadata.archived) return thread;
  const at = autoArchiveAt(thread);
  if (at > now) return thread;
  const archived: ThreadRecord = {
    ...thread,
    thread_metadata: { ...thread.thread_metadata, archived: true, archive_timestamp: at },
  };
  await tx.store('channels').put(archived);
  emit({ type: 'THREAD_UPDATE', data: serializeThread(archived, now), audience: threadAudience(thread.guild_id!) });
  return archived;
}

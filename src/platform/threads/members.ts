/**
 * Thread members: join and leave (`@me`), add and remove another user, one member, and the
 * list (by user id, `after` and `limit`, with the guild member when asked). Changes need the
 * thread not archived (400 50083; a thread the clock has auto-archived is archived), log
 * THREAD_MEMBERS_UPDATE to the guild, THREAD_CREATE (with `member`) to a user who joined or
 * was added, and THREAD_MEMBER_UPDATE (their own membership) to a user who joined. Adding needs SEND_MESSAGES_IN_THREADS, and in a private thread membership (or
 * MANAGE_THREADS), and MANAGE_THREADS when it is not `invitable`; removing another needs
 * MANAGE_THREADS, or being the creator of a private thread.
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import type { ThreadMemberRecord } from '../../store/records/threads';
import { THREAD_TYPES } from '../../store/records/threads';
import type { ThreadMember } from '../../store/records/dispatches';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { THREAD_MEMBERS_PAGE_MAX } from '../core/limits';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { keyRange } from '../../store/port';
import type { ReadTx } from '../../store/schema';
import { loadThreadAccess, managesThreads, requireThreadView, THREAD_STORES, type ThreadAccess } from './access';
import { settleAutoArchive, threadAudience, threadMemberAudience } from './events';
import { serializeThread, type ThreadRecord } from './wire';
import { serializeThreadMember } from './member-wire';

/** Settles the thread's auto-archive; 400 50083 when it is archived. */
async function requireOpen(tx: WriteTx, emit: Emit, access: ThreadAccess, now: number): Promise<ThreadRecord> {
  const thread = await settleAutoArchive(tx, emit, access.thread, now);
  if (thread.thread_metadata.archived) throw ApiError.of('THREAD_ARCHIVED');
  return thread;
}

/** The thread member with its guild member, when asked and the user is still in the guild. */
async function withGuildMember(tx: ReadTx, record: ThreadMemberRecord, withMember: boolean): Promise<ThreadMember> {
  if (!withMember) return serializeThreadMember(record);
  const [member, user] = await Promise.all([
    tx.store('members').get([record.guild_id, record.user_id]),
    tx.store('users').get(record.user_id),
  ]);
  return serializeThreadMember(record, member && user ? { member, user } : null);
}

/** Adds `userId` to the thread and logs the events; its membership, or null when already in it. */
async function addMember(
  tx: WriteTx,
  emit: Emit,
  thread: ThreadRecord,
  userId: string,
  now: number,
): Promise<ThreadMemberRecord | null> {
  const members = tx.store('thread_members');
  if (await members.get([thread.id, userId])) return null;
  const guildId = thread.guild_id!;
  const record: ThreadMemberRecord = {
    thread_id: thread.id,
    user_id: userId,
    guild_id: guildId,
    join_timestamp: now,
    flags: 0,
  };
  await members.add(record);
  const updated: ThreadRecord = { ...thread, member_count: (thread.member_count ?? 0) + 1 };
  await tx.store('channels').put(updated);
  const added = await withGuildMember(tx, record, true);
  emit({
    type: 'THREAD_CREATE',
    data: { ...serializeThread(updated, now), member: serializeThreadMember(record) },
    audience: threadMemberAudience(userId),
  });
  emit({
    type: 'THREAD_MEMBERS_UPDATE',
    data: { id: thread.id, guild_id: guildId, member_count: updated.member_count!, added_members: [added] },
    audience: threadAudience(guildId),
  });
  return record;
}

/** Removes `userId` from the thread (nothing when not in it) and logs the event. */
async function removeMember(tx: WriteTx, emit: Emit, thread: ThreadRecord, userId: string): Promise<boolean> {
  const members = tx.store('thread_members');
  if (!(await members.get([thread.id, userId]))) return false;
  await members.delete([thread.id, userId]);
  const count = Math.max(0, (thread.member_count ?? 1) - 1);
  await tx.store('channels').put({ ...thread, member_count: count });
  emit({
    type: 'THREAD_MEMBERS_UPDATE',
    data: { id: thread.id, guild_id: thread.guild_id!, member_count: count, removed_member_ids: [userId] },
    audience: threadAudience(thread.guild_id!),
  });
  return true;
}

/** `PUT /channels/{id}/thread-members/@me`: join a thread one can see. */
export async function joinThread(ctx: PlatformContext, principal: Principal, threadId: string): Promise<void> {
  await write(ctx, THREAD_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadThreadAccess(tx, threadId, principal.user.id);
    requireThreadView(access);
    const thread = await requireOpen(tx, emit, access, now);
    const joined = await addMember(tx, emit, thread, principal.user.id, now);
    // The joining user's own membership: the signal that they are in the thread.
    if (joined)
      emit({
        type: 'THREAD_MEMBER_UPDATE',
        data: { ...serializeThreadMember(joined), guild_id: thread.guild_id! },
        audience: threadMemberAudience(principal.user.id),
      });
  });
}

/** `DELETE /channels/{id}/thread-members/@me`: leave a thread. */
export async function leaveThread(ctx: PlatformContext, principal: Principal, threadId: string): Promise<void> {
  await write(ctx, THREAD_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadThreadAccess(tx, threadId, principal.user.id);
    requireThreadView(access);
    const thread = await requireOpen(tx, emit, access, now);
    await removeMember(tx, emit, thread, principal.user.id);
  });
}

/** `PUT /channels/{id}/thread-members/{user_id}`: add a member of the guild. */
export async function addThreadMember(
  ctx: PlatformContext,
  principal: Principal,
  threadId: string,
  userId: string,
): Promise<void> {
  await write(ctx, THREAD_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadThreadAccess(tx, threadId, principal.user.id);
    requireThreadView(access);
    if (!hasPermission(access.permissions, PERMISSIONS.SEND_MESSAGES_IN_THREADS))
      throw ApiError.of('MISSING_PERMISSIONS');
    const meta = access.thread.thread_metadata;
    if (access.thread.type === THREAD_TYPES.PRIVATE_THREAD && meta.invitable === false && !managesThreads(access))
      throw ApiError.of('MISSING_PERMISSIONS');
    const thread = await requireOpen(tx, emit, access, now);
    if (!(await tx.store('members').get([thread.guild_id!, userId]))) throw ApiError.of('UNKNOWN_MEMBER');
    await addMember(tx, emit, thread, userId, now);
  });
}

/** `DELETE /channels/{id}/thread-members/{user_id}`: remove a member (404 10007 when not one). */
export async function removeThreadMember(
  ctx: PlatformContext,
  principal: Principal,
  threadId: string,
  userId: string,
): Promise<void> {
  await write(ctx, THREAD_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadThreadAccess(tx, threadId, principal.user.id);
    requireThreadView(access);
    const creatorOfPrivate =
      access.thread.type === THREAD_TYPES.PRIVATE_THREAD && access.thread.owner_id === principal.user.id;
    if (!managesThreads(access) && !creatorOfPrivate) throw ApiError.of('MISSING_PERMISSIONS');
    const thread = await requireOpen(tx, emit, access, now);
    if (!(await removeMember(tx, emit, thread, userId))) throw ApiError.of('UNKNOWN_MEMBER');
  });
}

/** `GET /channels/{id}/thread-members/{user_id}`: one member (404 10007 when not one). */
export async function getThreadMember(
  ctx: PlatformContext,
  principal: Principal,
  threadId: string,
  userId: string,
  withMember: boolean,
): Promise<ThreadMember> {
  const tx = ctx.db.read(THREAD_STORES);
  const access = await loadThreadAccess(tx, threadId, principal.user.id);
  requireThreadView(access);
  const record = await tx.store('thread_members').get([threadId, userId]);
  if (!record) throw ApiError.of('UNKNOWN_MEMBER');
  return withGuildMember(tx, record, withMember);
}

/** `GET /channels/{id}/thread-members`: members by user id, after `after`, at most `limit` (100). */
export async function listThreadMembers(
  ctx: PlatformContext,
  principal: Principal,
  threadId: string,
  query: { with_member: boolean; after?: string; limit?: number },
): Promise<ThreadMember[]> {
  const tx = ctx.db.read(THREAD_STORES);
  const access = await loadThreadAccess(tx, threadId, principal.user.id);
  requireThreadView(access);
  const records = await tx.store('thread_members').getAll(keyRange.bound([threadId], [threadId, []]));
  const after = query.after === undefined ? null : BigInt(query.after);
  const page = records
    .filter((r) => after === null || BigInt(r.user_id) > after)
    .sort((a, b) => (BigInt(a.user_id) < BigInt(b.user_id) ? -1 : 1))
    .slice(0, query.limit ?? THREAD_MEMBERS_PAGE_MAX);
  return Promise.all(page.map((r) => withGuildMember(tx, r, query.with_member)));
}

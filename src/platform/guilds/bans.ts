/**
 * Guild bans (public docs): list, get, ban (`PUT`), unban (`DELETE`) and bulk ban. Every
 * operation needs BAN_MEMBERS (a bulk ban MANAGE_GUILD too); the owner cannot be banned, and a
 * member only when their highest role is below the actor's (unless the actor owns the guild or
 * is an administrator). A ban removes the member (GUILD_MEMBER_REMOVE, GUILD_DELETE to them),
 * deletes their messages of the last `delete_message_seconds` by the sandbox clock
 * (MESSAGE_DELETE each), emits GUILD_BAN_ADD (GUILD_MODERATION intent) and writes
 * MEMBER_BAN_ADD to the audit log, in one write. A banned user cannot join again (40007).
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import { keyRange } from '../../store/port';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  bypassesHierarchy,
  dbReader,
  guildPermissions,
  highestRolePosition,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
  type GuildView,
} from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { serializeUser } from '../accounts/users';
import { serializeMember } from './wire';
import { INTENTS } from '../core/intents';
import { PERMISSIONS } from '../core/permissions';
import { messageAudience } from '../messages/events';
import type { GuildBanRecord } from '../../store/records/guilds';
import type { UserRecord } from '../../store/records/core';

const BAN_STORES = [
  'guilds',
  'roles',
  'members',
  'users',
  'guild_bans',
  'channel_messages',
  'attachment_files',
  'audit_log_entries',
] as const;

/** The ban object: the reason and the banned user. */
function serializeBan(ban: GuildBanRecord, user: UserRecord) {
  return { reason: ban.reason, user: serializeUser(user) };
}

/** Every ban key of one guild. */
const guildBanRange = (guildId: string) => keyRange.bound([guildId], [guildId, []]);

const byUserId = (a: GuildBanRecord, b: GuildBanRecord) => (BigInt(a.user_id) < BigInt(b.user_id) ? -1 : 1);

/** The actor's view with BAN_MEMBERS (and `also`) checked. */
function requireBanner(view: GuildView, also = 0n): void {
  requireMember(view);
  requirePermissions(guildPermissions(view), PERMISSIONS.BAN_MEMBERS | also);
}

/**
 * `GET /guilds/{guild.id}/bans`: bans by user id, after `after` or before `before` (the ones
 * nearest to it), at most `limit`.
 * @example await listGuildBans(ctx, bot, guildId, { limit: 1000 });
 */
export async function listGuildBans(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  query: { before?: string; after?: string; limit: number },
) {
  requireBanner(await loadGuildView(dbReader(ctx.db), guildId, principal.user.id));
  const tx = ctx.db.read(['guild_bans', 'users']);
  let bans = (await tx.store('guild_bans').getAll(guildBanRange(guildId))).sort(byUserId);
  if (query.after !== undefined) {
    const after = BigInt(query.after);
    bans = bans.filter((b) => BigInt(b.user_id) > after).slice(0, query.limit);
  } else if (query.before !== undefined) {
    const before = BigInt(query.before);
    bans = bans.filter((b) => BigInt(b.user_id) < before).slice(-query.limit);
  } else {
    bans = bans.slice(0, query.limit);
  }
  const users = await Promise.all(bans.map((b) => tx.store('users').get(b.user_id)));
  return bans.flatMap((b, i) => (users[i] ? [serializeBan(b, users[i]!)] : []));
}

/** `GET /guilds/{guild.id}/bans/{user.id}`: the ban, or 404 (10026). */
export async function getGuildBan(ctx: PlatformContext, principal: BotPrincipal, guildId: string, userId: string) {
  requireBanner(await loadGuildView(dbReader(ctx.db), guildId, principal.user.id));
  const tx = ctx.db.read(['guild_bans', 'users']);
  const [ban, user] = await Promise.all([tx.store('guild_bans').get([guildId, userId]), tx.store('users').get(userId)]);
  if (!ban || !user) throw ApiError.of('UNKNOWN_BAN');
  return serializeBan(ban, user);
}

/** Why the actor may not ban `userId` (an error), or null when it may. */
async function refusal(tx: WriteTx, view: GuildView, userId: string): Promise<ApiError | null> {
  const user = await tx.store('users').get(userId);
  if (!user) return ApiError.of('UNKNOWN_USER');
  if (userId === view.guild.owner_id) return ApiError.of('MISSING_PERMISSIONS');
  const member = await tx.store('members').get([view.guild.id, userId]);
  if (
    member &&
    !bypassesHierarchy(view) &&
    highestRolePosition(view, view.member!.roles) <= highestRolePosition(view, member.roles)
  )
    return ApiError.of('MISSING_PERMISSIONS');
  return null;
}

/** Bans a user the actor may ban: stores the ban, removes the member, deletes recent messages. */
async function applyBan(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  view: GuildView,
  actorId: string,
  userId: string,
  options: { deleteMessageSeconds: number; reason: string | null },
): Promise<void> {
  const guildId = view.guild.id;
  const user = (await tx.store('users').get(userId))!;
  const now = ctx.clock.now();
  await tx.store('guild_bans').put({ guild_id: guildId, user_id: userId, reason: options.reason, created_at: now });
  const member = await tx.store('members').get([guildId, userId]);
  if (member) {
    await tx.store('members').delete([guildId, userId]);
    emit({
      type: 'GUILD_MEMBER_REMOVE',
      data: { guild_id: guildId, user: serializeMember(member, user).user },
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
    });
    emit({ type: 'GUILD_DELETE', data: { id: guildId }, audience: { user_ids: [userId] } });
  }
  if (options.deleteMessageSeconds > 0) {
    const since = now - options.deleteMessageSeconds * 1000;
    const messages = await tx
      .store('channel_messages')
      .index('by_guild')
      .getAll(keyRange.bound([guildId, ''], [guildId, '\uffff']));
    for (const message of messages.filter((m) => m.author_id === userId && m.created_at >= since)) {
      await tx.store('channel_messages').delete([message.channel_id, message.order_key]);
      await Promise.all(message.attachments.map((a) => tx.store('attachment_files').delete(a.id)));
      emit({
        type: 'MESSAGE_DELETE',
        data: { id: message.id, channel_id: message.channel_id, guild_id: guildId },
        audience: messageAudience(guildId),
      });
    }
  }
  emit({
    type: 'GUILD_BAN_ADD',
    data: { guild_id: guildId, user: serializeUser(user) },
    audience: { guild_id: guildId, intent: INTENTS.GUILD_MODERATION },
  });
  await appendAuditLogEntry(ctx, tx, {
    guild_id: guildId,
    action_type: AUDIT_LOG_EVENTS.MEMBER_BAN_ADD,
    user_id: actorId,
    target_id: userId,
    ...(options.reason ? { reason: options.reason } : {}),
  });
}

/**
 * `PUT /guilds/{guild.id}/bans/{user.id}`: bans the user (a user already banned stays banned,
 * nothing is emitted again).
 * @example await banGuildMember(ctx, bot, guildId, userId, { deleteMessageSeconds: 3600, reason: null });
 */
export async function banGuildMember(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  userId: string,
  options: { deleteMessageSeconds: number; reason: string | null },
): Promise<void> {
  await write(ctx, [...BAN_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireBanner(view);
    const refused = await refusal(tx, view, userId);
    if (refused) throw refused;
    if (await tx.store('guild_bans').get([guildId, userId])) return;
    await applyBan(ctx, tx, emit, view, principal.user.id, userId, options);
  });
}

/**
 * `DELETE /guilds/{guild.id}/bans/{user.id}`: lifts the ban (404 10026 when there is none);
 * GUILD_BAN_REMOVE and MEMBER_BAN_REMOVE.
 */
export async function unbanGuildMember(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  userId: string,
  reason: string | null,
): Promise<void> {
  await write(ctx, ['guilds', 'roles', 'members', 'users', 'guild_bans', 'audit_log_entries'], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireBanner(view);
    const [ban, user] = await Promise.all([
      tx.store('guild_bans').get([guildId, userId]),
      tx.store('users').get(userId),
    ]);
    if (!ban || !user) throw ApiError.of('UNKNOWN_BAN');
    await tx.store('guild_bans').delete([guildId, userId]);
    emit({
      type: 'GUILD_BAN_REMOVE',
      data: { guild_id: guildId, user: serializeUser(user) },
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MODERATION },
    });
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.MEMBER_BAN_REMOVE,
      user_id: principal.user.id,
      target_id: userId,
      ...(reason ? { reason } : {}),
    });
  });
}

/**
 * `POST /guilds/{guild.id}/bulk-ban`: bans each user the actor may ban and who is not banned
 * yet (`banned_users`); the others are `failed_users`. When none could be banned: 400 (500000)
 * and nothing changes. Needs BAN_MEMBERS and MANAGE_GUILD.
 * @example await bulkBan(ctx, bot, guildId, { userIds: [a, b], deleteMessageSeconds: 0, reason: null });
 */
export async function bulkBan(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  input: { userIds: readonly string[]; deleteMessageSeconds: number; reason: string | null },
) {
  return write(ctx, [...BAN_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireBanner(view, PERMISSIONS.MANAGE_GUILD);
    const banned: string[] = [];
    const failed: string[] = [];
    for (const userId of new Set(input.userIds)) {
      const ok = !(await refusal(tx, view, userId)) && !(await tx.store('guild_bans').get([guildId, userId]));
      (ok ? banned : failed).push(userId);
    }
    if (banned.length === 0) throw ApiError.of('BULK_BAN_FAILED');
    for (const userId of banned) await applyBan(ctx, tx, emit, view, principal.user.id, userId, input);
    return { banned_users: banned, failed_users: failed };
  });
}

/**
 * Throws 403 (40007) when `userId` is banned from the guild: every way of joining checks it.
 * @example await refuseBannedUser(tx, guildId, userId);
 */
export async function refuseBannedUser(
  tx: { store(name: 'guild_bans'): { get(key: [string, string]): Promise<GuildBanRecord | undefined> } },
  guildId: string,
  userId: string,
): Promise<void> {
  if (await tx.store('guild_bans').get([guildId, userId])) throw ApiError.of('BANNED_FROM_GUILD');
}

/**
 * Guild members over HTTP for bots: list and get, kick, and adding or removing one role. Every
 * change appends GUILD_MEMBER_UPDATE / GUILD_MEMBER_REMOVE (guild audience, GUILD_MEMBERS
 * intent) in the same transaction, which is what keeps a gateway client's member cache current.
 */
import { grantedPrivilegedIntents } from '../accounts/privileged-intents';
import { write } from '../../store/write';
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
import { serializeMember } from './wire';
import { INTENTS } from '../core/intents';
import { PERMISSIONS } from '../core/permissions';
import type { MemberRecord } from '../../store/records/core';
import { keyRange } from '../../store/port';

/** A member with its user, as routes answer it. */
export type WireMember = ReturnType<typeof serializeMember>;

/** The bot's view of a guild it must be a member of (50001 otherwise). */
async function memberView(ctx: PlatformContext, principal: BotPrincipal, guildId: string): Promise<GuildView> {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  return view;
}

/**
 * Members of a guild in user id order, after `after`, at most `limit`. Like the platform, this
 * needs the GUILD_MEMBERS privileged intent to be granted to the application (50001).
 */
export async function listGuildMembers(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  options: { limit: number; after: string },
): Promise<WireMember[]> {
  await memberView(ctx, principal, guildId);
  if (((await grantedPrivilegedIntents(ctx.db, principal.application)) & INTENTS.GUILD_MEMBERS) === 0)
    throw ApiError.of('MISSING_ACCESS');
  const tx = ctx.db.read(['members', 'users']);
  const members = await tx.store('members').getAll(keyRange.bound([guildId], [guildId, []]));
  const after = BigInt(options.after);
  const page = members
    .filter((m) => BigInt(m.user_id) > after)
    .sort((a, b) => (BigInt(a.user_id) < BigInt(b.user_id) ? -1 : 1))
    .slice(0, options.limit);
  const users = await Promise.all(page.map((m) => tx.store('users').get(m.user_id)));
  return page.flatMap((m, i) => (users[i] ? [serializeMember(m, users[i]!)] : []));
}

/** One member of a guild the bot is in (10007 when not a member). */
export async function getGuildMember(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  userId: string,
): Promise<WireMember> {
  await memberView(ctx, principal, guildId);
  const [member, user] = await Promise.all([ctx.db.get('members', [guildId, userId]), ctx.db.get('users', userId)]);
  if (!member || !user) throw ApiError.of('UNKNOWN_MEMBER');
  return serializeMember(member, user);
}

/** Throws 50013 unless the actor may manage a member whose highest role is at `position`. */
function requireAbove(view: GuildView, position: number): void {
  if (!bypassesHierarchy(view) && highestRolePosition(view, view.member!.roles) <= position)
    throw ApiError.of('MISSING_PERMISSIONS');
}

/**
 * Adds (`add`) or removes a role of a member: MANAGE_ROLES, and the role must be below the bot's
 * highest role (unless the bot owns the guild or is an administrator). @everyone cannot be
 * assigned (10011). Nothing changes, and nothing is emitted, when the member already has (or
 * lacks) the role.
 */
export async function setMemberRole(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  userId: string,
  roleId: string,
  add: boolean,
): Promise<void> {
  await write(ctx, ['guilds', 'roles', 'members', 'users'], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const role = view.roles.find((r) => r.id === roleId);
    if (!role || role.id === guildId) throw ApiError.of('UNKNOWN_ROLE');
    const member = await tx.store('members').get([guildId, userId]);
    const user = await tx.store('users').get(userId);
    if (!member || !user) throw ApiError.of('UNKNOWN_MEMBER');
    requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_ROLES);
    requireAbove(view, role.position);
    if (member.roles.includes(roleId) === add) return;
    const updated: MemberRecord = {
      ...member,
      roles: add ? [...member.roles, roleId] : member.roles.filter((r) => r !== roleId),
    };
    await tx.store('members').put(updated);
    emit({
      type: 'GUILD_MEMBER_UPDATE',
      data: { ...serializeMember(updated, user), guild_id: guildId },
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
    });
  });
}

/**
 * Removes a member from the guild (kick): KICK_MEMBERS, never the owner, and only members whose
 * highest role is below the bot's. Emits GUILD_MEMBER_REMOVE to the guild and GUILD_DELETE to
 * the member who left.
 */
export async function removeGuildMember(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  userId: string,
): Promise<void> {
  await write(ctx, ['guilds', 'roles', 'members', 'users'], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const member = await tx.store('members').get([guildId, userId]);
    const user = await tx.store('users').get(userId);
    if (!member || !user) throw ApiError.of('UNKNOWN_MEMBER');
    requirePermissions(guildPermissions(view), PERMISSIONS.KICK_MEMBERS);
    if (userId === view.guild.owner_id) throw ApiError.of('MISSING_PERMISSIONS');
    if (userId !== principal.user.id) requireAbove(view, highestRolePosition(view, member.roles));
    await tx.store('members').delete([guildId, userId]);
    emit({
      type: 'GUILD_MEMBER_REMOVE',
      data: { guild_id: guildId, user: serializeMember(member, user).user },
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
    });
    emit({ type: 'GUILD_DELETE', data: { id: guildId }, audience: { user_ids: [userId] } });
  });
}

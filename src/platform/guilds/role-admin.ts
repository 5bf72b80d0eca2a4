/**
 * A guild's roles as a bot manages them (public docs): create (`POST /guilds/{guild.id}/roles`),
 * reorder (`PATCH /guilds/{guild.id}/roles`) and delete (`DELETE .../roles/{role.id}`). Each
 * needs MANAGE_ROLES and, unless the bot owns the guild or is an administrator, the role
 * hierarchy: only roles below the bot's highest role, never granting permissions it lacks. Every
 * change emits GUILD_ROLE_CREATE / UPDATE / DELETE (GUILDS intent) and its audit log entry in
 * the same write. A new role sits at position 1 (just above @everyone), as on the platform.
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import { keyRange } from '../../store/port';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  bypassesHierarchy,
  guildPermissions,
  highestRolePosition,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
  type GuildView,
} from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { NO_ROLE_COLORS, resolveRoleColors } from './role-colors';
import type { RoleChanges } from './roles';
import { serializeChannel, serializeRole } from './wire';
import { INTENTS } from '../core/intents';
import { GUILD_ROLES_MAX } from '../core/limits';
import { PERMISSIONS, hasPermission, parsePermissions, serializePermissions } from '../core/permissions';
import type { RoleRecord } from '../../store/records/core';

const ROLE_STORES = ['guilds', 'roles', 'members', 'audit_log_entries'] as const;

/** Roles by position, then id: the order the platform lists them in. */
const byPosition = (a: RoleRecord, b: RoleRecord) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1);

/** The actor's view with MANAGE_ROLES checked; its permissions and the top of its hierarchy. */
async function roleManager(tx: WriteTx, guildId: string, principal: BotPrincipal) {
  const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
  requireMember(view);
  const bits = guildPermissions(view);
  requirePermissions(bits, PERMISSIONS.MANAGE_ROLES);
  const bypass = bypassesHierarchy(view);
  return { view, bits, bypass, top: bypass ? Infinity : highestRolePosition(view, view.member!.roles) };
}

/** Stores `roles` at their new positions, emitting GUILD_ROLE_UPDATE for each that moved. */
async function putMoved(
  tx: WriteTx,
  emit: Emit,
  guildId: string,
  before: readonly RoleRecord[],
  after: readonly RoleRecord[],
): Promise<RoleRecord[]> {
  const moved = after.filter((r) => before.find((b) => b.id === r.id)?.position !== r.position);
  for (const role of moved) {
    await tx.store('roles').put(role);
    emit({
      type: 'GUILD_ROLE_UPDATE',
      data: { guild_id: guildId, role: serializeRole(role) },
      audience: { guild_id: guildId, intent: INTENTS.GUILDS },
    });
  }
  return moved;
}

/**
 * `POST /guilds/{guild.id}/roles`: a new role at position 1 (the others move up one). Defaults
 * as on the platform: "new role", @everyone's permissions, no colour. 30005 at 250 roles.
 * @example await createGuildRole(ctx, bot, guildId, { name: 'Raiders', hoist: true });
 */
export async function createGuildRole(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  input: RoleChanges,
) {
  return write(ctx, [...ROLE_STORES], async (tx, emit) => {
    const { view, bits, bypass } = await roleManager(tx, guildId, principal);
    const everyone = view.roles.find((r) => r.id === guildId);
    const permissions = input.permissions ?? parsePermissions(everyone?.permissions ?? '0') ?? 0n;
    if (!bypass && input.permissions !== undefined && !hasPermission(bits, input.permissions))
      throw ApiError.of('MISSING_PERMISSIONS');
    if (view.roles.length >= GUILD_ROLES_MAX) throw ApiError.of('ROLES_MAX');
    const colors = { ...resolveRoleColors(NO_ROLE_COLORS, input, view.guild.features) };
    const role: RoleRecord = {
      id: ctx.ids.next(),
      guild_id: guildId,
      name: input.name ?? 'new role',
      permissions: serializePermissions(permissions),
      position: 1,
      color: colors.primary_color,
      colors,
      hoist: input.hoist ?? false,
      managed: false,
      mentionable: input.mentionable ?? false,
      icon: null,
      unicode_emoji: null,
      flags: 0,
    };
    const shifted = view.roles.map((r) =>
      r.id === guildId || r.position < 1 ? r : { ...r, position: r.position + 1 },
    );
    await tx.store('roles').add(role);
    emit({
      type: 'GUILD_ROLE_CREATE',
      data: { guild_id: guildId, role: serializeRole(role) },
      audience: { guild_id: guildId, intent: INTENTS.GUILDS },
    });
    await putMoved(tx, emit, guildId, view.roles, shifted);
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.ROLE_CREATE,
      user_id: principal.user.id,
      target_id: role.id,
      changes: [
        { key: 'name', new_value: role.name },
        { key: 'permissions', new_value: role.permissions },
        { key: 'color', new_value: role.color },
        { key: 'hoist', new_value: role.hoist },
        { key: 'mentionable', new_value: role.mentionable },
      ],
    });
    return serializeRole(role);
  });
}

/**
 * `PATCH /guilds/{guild.id}/roles`: moves each listed role to its `position` (the others keep
 * their order around it) and answers every role. @everyone stays at 0 (listing it there is
 * allowed); a role that moves, and the place it goes to, must be below the bot's highest role.
 * @example await modifyRolePositions(ctx, bot, guildId, [{ id: roleId, position: 1 }]);
 */
export async function modifyRolePositions(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  input: readonly { id: string; position?: number | null }[],
) {
  return write(ctx, [...ROLE_STORES], async (tx, emit) => {
    const { view, top } = await roleManager(tx, guildId, principal);
    const bad: Record<string, string> = {};
    input.forEach((item, i) => {
      if (!view.roles.some((r) => r.id === item.id)) bad[`${i}.id`] = 'Unknown role.';
      else if (item.id === guildId && item.position != null && item.position !== 0)
        bad[`${i}.position`] = 'The @everyone role cannot be moved.';
    });
    if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
    // Libraries send every role with its place (as discord.js does); only the ones that move
    // are checked against the hierarchy.
    const requested = new Map<string, number>();
    for (const item of input) {
      const current = view.roles.find((r) => r.id === item.id)!;
      if (item.position != null && item.id !== guildId && item.position !== current.position)
        requested.set(item.id, item.position);
    }
    for (const [id, position] of requested) {
      const role = view.roles.find((r) => r.id === id)!;
      if (role.position >= top || position >= top) throw ApiError.of('MISSING_PERMISSIONS');
    }
    const order = view.roles.filter((r) => r.id !== guildId && !requested.has(r.id)).sort(byPosition);
    const movers = [...requested].sort((a, b) => a[1] - b[1]);
    for (const [id, position] of movers) {
      const role = view.roles.find((r) => r.id === id)!;
      order.splice(Math.min(Math.max(position - 1, 0), order.length), 0, role);
    }
    const after = order.map((r, i) => (r.position === i + 1 ? r : { ...r, position: i + 1 }));
    const moved = await putMoved(tx, emit, guildId, view.roles, after);
    for (const role of moved.filter((r) => requested.has(r.id))) {
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.ROLE_UPDATE,
        user_id: principal.user.id,
        target_id: role.id,
        changes: [
          { key: 'position', old_value: view.roles.find((r) => r.id === role.id)!.position, new_value: role.position },
        ],
      });
    }
    const everyone = view.roles.filter((r) => r.id === guildId);
    return [...everyone, ...after].sort(byPosition).map(serializeRole);
  });
}

/**
 * `DELETE /guilds/{guild.id}/roles/{role.id}`: @everyone and managed roles cannot be deleted
 * (400 50028). Members lose the role, emoji restricted to it no longer name it, and channel
 * overwrites for it go (CHANNEL_UPDATE for each channel that had one).
 * @example await deleteGuildRole(ctx, bot, guildId, roleId);
 */
export async function deleteGuildRole(ctx: PlatformContext, principal: BotPrincipal, guildId: string, roleId: string) {
  await write(ctx, [...ROLE_STORES, 'channels', 'emojis'], async (tx, emit) => {
    const { view, top } = await roleManager(tx, guildId, principal);
    const role = view.roles.find((r) => r.id === roleId);
    if (!role) throw ApiError.of('UNKNOWN_ROLE');
    if (role.id === guildId || role.managed) throw ApiError.of('INVALID_ROLE');
    if (role.position >= top) throw ApiError.of('MISSING_PERMISSIONS');
    await tx.store('roles').delete(roleId);
    await dropRoleEverywhere(tx, emit, view, roleId);
    emit({
      type: 'GUILD_ROLE_DELETE',
      data: { guild_id: guildId, role_id: roleId },
      audience: { guild_id: guildId, intent: INTENTS.GUILDS },
    });
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.ROLE_DELETE,
      user_id: principal.user.id,
      target_id: roleId,
      changes: [
        { key: 'name', old_value: role.name },
        { key: 'permissions', old_value: role.permissions },
        { key: 'color', old_value: role.color },
        { key: 'hoist', old_value: role.hoist },
        { key: 'mentionable', old_value: role.mentionable },
      ],
    });
  });
}

/** Removes a deleted role from members, emoji and channel overwrites of its guild. */
async function dropRoleEverywhere(tx: WriteTx, emit: Emit, view: GuildView, roleId: string): Promise<void> {
  const guildId = view.guild.id;
  const members = await tx.store('members').getAll(keyRangeOfGuild(guildId));
  for (const member of members.filter((m) => m.roles.includes(roleId)))
    await tx.store('members').put({ ...member, roles: member.roles.filter((id) => id !== roleId) });
  const emojis = await tx.store('emojis').index('by_guild').getAll(guildId);
  for (const emoji of emojis.filter((e) => e.roles.includes(roleId)))
    await tx.store('emojis').put({ ...emoji, roles: emoji.roles.filter((id) => id !== roleId) });
  const channels = await tx.store('channels').index('by_guild').getAll(guildId);
  for (const channel of channels.filter((c) => c.permission_overwrites.some((o) => o.id === roleId))) {
    const updated = { ...channel, permission_overwrites: channel.permission_overwrites.filter((o) => o.id !== roleId) };
    await tx.store('channels').put(updated);
    emit({
      type: 'CHANNEL_UPDATE',
      data: serializeChannel(updated),
      audience: { guild_id: guildId, intent: INTENTS.GUILDS },
    });
  }
}

/** Every member key of one guild (`[guild_id, user_id]`). */
function keyRangeOfGuild(guildId: string) {
  return keyRange.bound([guildId], [guildId, []]);
}

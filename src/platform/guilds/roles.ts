/**
 * Changing a role: `PATCH /guilds/{guild.id}/roles/{role.id}`. Needs MANAGE_ROLES; a bot that
 * is neither owner nor administrator may only edit roles below its highest role and may not
 * grant permissions it lacks. Appends GUILD_ROLE_UPDATE (guild audience, GUILDS intent): a
 * change of permissions can let a bot view channels it could not, which the gateway follows
 * with CHANNEL_UPDATEs for bots that receive channels obfuscated. A change is written to the
 * audit log (ROLE_UPDATE) when a field changed.
 */
import { write } from '../../store/write';
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
} from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { resolveRoleColors, type RoleColorInput } from './role-colors';
import { serializeRole } from './wire';
import { INTENTS } from '../core/intents';
import { PERMISSIONS, hasPermission, serializePermissions } from '../core/permissions';
import type { RoleColors, RoleRecord } from '../../store/records/core';

/** The fields of a role a bot may change (`color` is deprecated but honored: see role-colors.ts). */
export interface RoleChanges extends RoleColorInput {
  name?: string;
  permissions?: bigint;
  hoist?: boolean;
  mentionable?: boolean;
}

/**
 * Applies `changes` to a role and answers it.
 * @example await modifyGuildRole(ctx, bot, guildId, roleId, { permissions: PERMISSIONS.VIEW_CHANNEL });
 */
export async function modifyGuildRole(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  roleId: string,
  changes: RoleChanges,
) {
  return write(ctx, ['guilds', 'roles', 'members', 'audit_log_entries'], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const role = view.roles.find((r) => r.id === roleId);
    if (!role) throw ApiError.of('UNKNOWN_ROLE');
    const bits = guildPermissions(view);
    requirePermissions(bits, PERMISSIONS.MANAGE_ROLES);
    if (!bypassesHierarchy(view)) {
      if (highestRolePosition(view, view.member!.roles) <= role.position) throw ApiError.of('MISSING_PERMISSIONS');
      if (changes.permissions !== undefined && !hasPermission(bits, changes.permissions))
        throw ApiError.of('MISSING_PERMISSIONS');
    }
    const colors = resolveRoleColors(role.colors, changes, view.guild.features);
    const updated: RoleRecord = {
      ...role,
      name: changes.name ?? role.name,
      permissions: changes.permissions === undefined ? role.permissions : serializePermissions(changes.permissions),
      hoist: changes.hoist ?? role.hoist,
      mentionable: changes.mentionable ?? role.mentionable,
      color: colors.primary_color,
      colors,
    };
    const changed = (['name', 'permissions', 'color', 'hoist', 'mentionable'] as const).filter(
      (key) => role[key] !== updated[key],
    );
    await tx.store('roles').put(updated);
    if (changed.length > 0)
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.ROLE_UPDATE,
        user_id: principal.user.id,
        target_id: roleId,
        changes: changed.map((key) => ({ key, old_value: role[key], new_value: updated[key] })),
      });
    emit({
      type: 'GUILD_ROLE_UPDATE',
      data: { guild_id: guildId, role: serializeRole(updated) },
      audience: { guild_id: guildId, intent: INTENTS.GUILDS },
    });
    return serializeRole(updated);
  });
}

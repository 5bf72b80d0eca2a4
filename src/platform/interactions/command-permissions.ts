/**
 * Application command permissions in a guild: `GET /applications/{id}/guilds/{guild.id}/commands/
 * permissions` and `GET` / `PUT .../commands/{command.id}/permissions`. Reading is the bot's; a
 * PUT takes a user's Bearer token with `applications.commands.permissions.update` (the platform's
 * docs), for the token's own application, from a member who may manage the guild and its roles
 * (MANAGE_GUILD and MANAGE_ROLES). A PUT replaces the command's list (at most 100 entries) and
 * emits APPLICATION_COMMAND_PERMISSIONS_UPDATE to the application's bot. A command id equal to
 * the application's id stands for all its commands; in an entry, the guild id is @everyone
 * (type 1) and the guild id minus 1 is all channels (type 3).
 */
import { write } from '../../store/write';
import { keyRange } from '../../store/port';
import type { BearerPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PERMISSIONS } from '../core/permissions';
import type { CommandPermission, CommandPermissionsRecord } from '../../store/records/commands';
import type { GuildCommandPermissions } from '../../store/records/dispatches';
import { guildPermissions, loadGuildView, requireMember, requirePermissions, txReader } from '../guilds/access';

/** Entry types: 1 ROLE, 2 USER, 3 CHANNEL. */
export const COMMAND_PERMISSION_TYPES = { ROLE: 1, USER: 2, CHANNEL: 3 } as const;

function serialize(record: CommandPermissionsRecord): GuildCommandPermissions {
  return {
    id: record.command_id,
    application_id: record.application_id,
    guild_id: record.guild_id,
    permissions: record.permissions,
  };
}

/** The caller's application must be `applicationId` (403 50001), and the guild must exist (10004). */
async function requireOwnApplication(
  ctx: PlatformContext,
  principal: Principal,
  applicationId: string,
  guildId: string,
) {
  if (principal.application.id !== applicationId) throw ApiError.of('MISSING_ACCESS');
  if (!(await ctx.db.getKey('guilds', guildId))) throw ApiError.of('UNKNOWN_GUILD');
}

/** `GET .../guilds/{guild.id}/commands/permissions`: every command's permissions the application set there. */
export async function listCommandPermissions(
  ctx: PlatformContext,
  principal: Principal,
  applicationId: string,
  guildId: string,
): Promise<GuildCommandPermissions[]> {
  await requireOwnApplication(ctx, principal, applicationId, guildId);
  const records = await ctx.db
    .read(['application_command_permissions'])
    .store('application_command_permissions')
    .getAll(keyRange.bound([applicationId, guildId, ''], [applicationId, guildId, '\uffff']));
  return records.map(serialize);
}

/** `GET .../commands/{command.id}/permissions`: one command's, or 404 (10066) when none were set. */
export async function getCommandPermissions(
  ctx: PlatformContext,
  principal: Principal,
  applicationId: string,
  guildId: string,
  commandId: string,
): Promise<GuildCommandPermissions> {
  await requireOwnApplication(ctx, principal, applicationId, guildId);
  const record = await ctx.db.get('application_command_permissions', [applicationId, guildId, commandId]);
  if (!record) throw ApiError.of('UNKNOWN_APPLICATION_COMMAND_PERMISSIONS');
  return serialize(record);
}

/**
 * `PUT .../commands/{command.id}/permissions`: replaces the command's permissions in the guild.
 * @example await putCommandPermissions(ctx, bearer, appId, guildId, commandId, [{ id: roleId, type: 1, permission: true }]);
 */
export async function putCommandPermissions(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  applicationId: string,
  guildId: string,
  commandId: string,
  permissions: CommandPermission[],
): Promise<GuildCommandPermissions> {
  if (principal.application.id !== applicationId) throw ApiError.of('MISSING_ACCESS');
  const stores = ['guilds', 'roles', 'members', 'users', 'channels', 'application_commands'] as const;
  return write(ctx, [...stores, 'application_command_permissions'], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD | PERMISSIONS.MANAGE_ROLES);
    if (commandId !== applicationId) {
      const command = await tx.store('application_commands').get(commandId);
      const inScope = command?.guild_id === null || command?.guild_id === guildId;
      if (!command || command.application_id !== applicationId || !inScope)
        throw ApiError.of('UNKNOWN_APPLICATION_COMMAND');
    }
    const allChannels = (BigInt(guildId) - 1n).toString();
    for (const [i, entry] of permissions.entries()) {
      const known =
        entry.type === COMMAND_PERMISSION_TYPES.ROLE
          ? view.roles.some((r) => r.id === entry.id)
          : entry.type === COMMAND_PERMISSION_TYPES.USER
            ? Boolean(await tx.store('users').get(entry.id))
            : entry.id === allChannels || (await tx.store('channels').get(entry.id))?.guild_id === guildId;
      if (!known)
        throw ApiError.invalidForm({ [`permissions.${i}.id`]: 'Unknown role, user or channel of this guild.' });
    }
    const record: CommandPermissionsRecord = {
      application_id: applicationId,
      guild_id: guildId,
      command_id: commandId,
      permissions,
    };
    await tx.store('application_command_permissions').put(record);
    const wire = serialize(record);
    emit({
      type: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
      data: wire,
      audience: { user_ids: [principal.application.bot_user_id] },
    });
    return wire;
  });
}

/**
 * Incident actions: `PUT /guilds/{guild.id}/incident-actions` pauses a guild's invites and / or
 * its members' DMs until a time at most 24 hours ahead (MANAGE_GUILD); null lifts a pause, an
 * absent field keeps it. The guild object's `incidents_data` and INVITES_DISABLED feature follow,
 * with GUILD_UPDATE; while invites are paused nobody joins through an invite.
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INCIDENT_ACTION_MAX_MS } from '../core/limits';
import { PERMISSIONS } from '../core/permissions';
import { guildPermissions, loadGuildView, requireMember, requirePermissions, txReader } from './access';
import { GUILD_SETTINGS_STORES, serializeIncidents, storeGuildSettings, txGuildSettings } from './guild-settings';

/** Instants in epoch ms, null to lift, absent to keep. */
export interface IncidentActionsChange {
  invites_disabled_until?: number | null;
  dms_disabled_until?: number | null;
}

/**
 * `PUT /guilds/{guild.id}/incident-actions`: answers the guild's `incidents_data`.
 * @example await modifyIncidentActions(ctx, bot, guildId, { invites_disabled_until: Date.now() + 3_600_000 });
 */
export async function modifyIncidentActions(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  change: IncidentActionsChange,
) {
  const now = ctx.clock.now();
  const bad: Record<string, string> = {};
  for (const field of ['invites_disabled_until', 'dms_disabled_until'] as const) {
    const until = change[field];
    if (until != null && until > now + INCIDENT_ACTION_MAX_MS) bad[field] = 'Must be at most 24 hours from now.';
  }
  return write(ctx, [...GUILD_SETTINGS_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
    if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
    const settings = await txGuildSettings(tx, guildId);
    const incidents = { ...settings.incidents };
    // A time already past lifts the pause, as null does.
    if (change.invites_disabled_until !== undefined)
      incidents.invites_disabled_until =
        (change.invites_disabled_until ?? 0) > now ? change.invites_disabled_until! : null;
    if (change.dms_disabled_until !== undefined)
      incidents.dms_disabled_until = (change.dms_disabled_until ?? 0) > now ? change.dms_disabled_until! : null;
    const updated = { ...settings, incidents };
    await storeGuildSettings(tx, emit, view.guild, view.roles, updated, now);
    return serializeIncidents(updated, now);
  });
}

/**
 * A guild's integrations, as the platform lists them here: one `discord` integration per bot
 * application in the guild, whose id is the application's id. `GET /guilds/{guild.id}/integrations`
 * (MANAGE_GUILD, at most 50) and `DELETE .../integrations/{integration.id}` (MANAGE_GUILD): the
 * bot leaves the guild (GUILD_MEMBER_REMOVE, GUILD_DELETE to the bot, its voice state dropped),
 * with GUILD_INTEGRATIONS_UPDATE and INTEGRATION_DELETE (GUILD_INTEGRATIONS intent) and an
 * INTEGRATION_DELETE audit entry. Twitch, YouTube and guild subscription integrations do not exist.
 */
import { write } from '../../store/write';
import { keyRange } from '../../store/port';
import type { ApplicationRecord, UserRecord } from '../../store/records/core';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { GUILD_INTEGRATIONS_MAX } from '../core/limits';
import { PERMISSIONS } from '../core/permissions';
import { serializeUser } from '../accounts/users';
import { wireApplicationFlags } from '../accounts/applications';
import { dbReader, guildPermissions, loadGuildView, requireMember, requirePermissions, txReader } from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { serializeMember } from './wire';

/** The scopes a bot application is installed with. */
const BOT_SCOPES = ['bot', 'applications.commands'] as const;

/** A bot application's integration object. */
function serializeIntegration(app: ApplicationRecord, bot: UserRecord) {
  return {
    id: app.id,
    type: 'discord' as const,
    name: app.name,
    enabled: true,
    account: { id: bot.id, name: bot.username },
    application: {
      id: app.id,
      name: app.name,
      icon: null,
      description: app.description,
      type: null,
      ...wireApplicationFlags(app),
      bot: serializeUser(bot),
    },
    scopes: [...BOT_SCOPES],
  };
}

/**
 * `GET /guilds/{guild.id}/integrations`: the guild's bot applications, by when they joined.
 * @example const integrations = await listGuildIntegrations(ctx, bot, guildId);
 */
export async function listGuildIntegrations(ctx: PlatformContext, principal: BotPrincipal, guildId: string) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
  const tx = ctx.db.read(['members', 'users', 'applications']);
  const members = (await tx.store('members').getAll(keyRange.bound([guildId, ''], [guildId, '\uffff']))).sort(
    (a, b) => a.joined_at - b.joined_at,
  );
  const users = await Promise.all(members.map((m) => tx.store('users').get(m.user_id)));
  const bots = users.filter((u): u is UserRecord => u?.bot === true);
  const apps = await Promise.all(bots.map((u) => tx.store('applications').index('by_bot_user').get(u.id)));
  return bots
    .flatMap((bot, i) => (apps[i] ? [serializeIntegration(apps[i], bot)] : []))
    .slice(0, GUILD_INTEGRATIONS_MAX);
}

/**
 * `DELETE /guilds/{guild.id}/integrations/{integration.id}`: an id that is not a bot application
 * in the guild is 404 (10005).
 */
export async function deleteGuildIntegration(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  integrationId: string,
): Promise<void> {
  await write(
    ctx,
    ['guilds', 'roles', 'members', 'users', 'applications', 'voice_states', 'audit_log_entries'],
    async (tx, emit) => {
      const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
      requireMember(view);
      requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
      const app = await tx.store('applications').get(integrationId);
      const member = app ? await tx.store('members').get([guildId, app.bot_user_id]) : undefined;
      const bot = app ? await tx.store('users').get(app.bot_user_id) : undefined;
      if (!app || !member || !bot) throw ApiError.of('UNKNOWN_INTEGRATION');
      await tx.store('members').delete([guildId, bot.id]);
      await tx.store('voice_states').delete([guildId, bot.id]);
      emit({
        type: 'GUILD_MEMBER_REMOVE',
        data: { guild_id: guildId, user: serializeMember(member, bot).user },
        audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
      });
      emit({ type: 'GUILD_DELETE', data: { id: guildId }, audience: { user_ids: [bot.id] } });
      emit({
        type: 'GUILD_INTEGRATIONS_UPDATE',
        data: { guild_id: guildId },
        audience: { guild_id: guildId, intent: INTENTS.GUILD_INTEGRATIONS },
      });
      emit({
        type: 'INTEGRATION_DELETE',
        data: { id: app.id, guild_id: guildId, application_id: app.id },
        audience: { guild_id: guildId, intent: INTENTS.GUILD_INTEGRATIONS },
      });
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.INTEGRATION_DELETE,
        user_id: principal.user.id,
        target_id: app.id,
        changes: [
          { key: 'type', old_value: 'discord' },
          { key: 'name', old_value: app.name },
        ],
      });
    },
  );
}

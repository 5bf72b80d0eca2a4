/**
 * A guild's settings for bots: welcome screen, widget (settings, `widget.json`, `widget.png`),
 * onboarding, incident actions, integrations, preview and vanity URL; and the in-place edits of
 * an invite's target users. Mounted at the API root.
 */
import { Hono } from 'hono';
import { editTargetUser, editTargetUsers } from '../../src/platform/channels/invites-target-users-edit';
import { InviteCodePathSchema } from '../../src/platform/channels/schemas';
import { snowflakeSchema } from '../../src/platform/core/schema-parts';
import { getGuildPreview, getVanityUrl } from '../../src/platform/guilds/guild-preview';
import { modifyIncidentActions } from '../../src/platform/guilds/incident-actions';
import { deleteGuildIntegration, listGuildIntegrations } from '../../src/platform/guilds/integrations';
import { getOnboarding, modifyOnboarding } from '../../src/platform/guilds/onboarding';
import {
  GuildSettingsPathSchema,
  IncidentActionsSchema,
  ModifyOnboardingSchema,
  ModifyWelcomeScreenSchema,
  ModifyWidgetSchema,
  TargetUsersBulkSchema,
  WidgetImageQuerySchema,
} from '../../src/platform/guilds/settings-schemas';
import { getWelcomeScreen, modifyWelcomeScreen } from '../../src/platform/guilds/welcome-screen';
import { getWidget, getWidgetSettings, modifyWidgetSettings } from '../../src/platform/guilds/widget';
import { getWidgetImage } from '../../src/platform/guilds/widget-image';
import { botOf, noContent, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';
import * as v from 'valibot';

const guildOf = (c: AppContext) => validate(GuildSettingsPathSchema, c.req.param()).guild_id;
const TargetUserPathSchema = v.object({ code: InviteCodePathSchema.entries.code, user_id: snowflakeSchema });

/** The guild community settings routes. */
export function guildCommunityRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/guilds/:guild_id/welcome-screen', async (c) =>
    c.json(await getWelcomeScreen(c.get('ctx'), botOf(c), guildOf(c))),
  );
  r.patch('/guilds/:guild_id/welcome-screen', async (c) => {
    const principal = botOf(c);
    const guildId = guildOf(c);
    return c.json(
      await modifyWelcomeScreen(c.get('ctx'), principal, guildId, await readJson(c, ModifyWelcomeScreenSchema)),
    );
  });

  r.get('/guilds/:guild_id/widget', async (c) => c.json(await getWidgetSettings(c.get('ctx'), botOf(c), guildOf(c))));
  r.patch('/guilds/:guild_id/widget', async (c) => {
    const principal = botOf(c);
    const guildId = guildOf(c);
    return c.json(await modifyWidgetSettings(c.get('ctx'), principal, guildId, await readJson(c, ModifyWidgetSchema)));
  });
  // The public widget: no token (the access table opens these two).
  r.get('/guilds/:guild_id/widget.json', async (c) => c.json(await getWidget(c.get('ctx'), guildOf(c))));
  r.get('/guilds/:guild_id/widget.png', async (c) => {
    const { style } = readQuery(c, WidgetImageQuerySchema);
    const png = await getWidgetImage(c.get('ctx'), guildOf(c), style);
    return new Response(png, { status: 200, headers: { 'Content-Type': 'image/png', 'Cache-Control': 'no-cache' } });
  });

  r.get('/guilds/:guild_id/onboarding', async (c) => c.json(await getOnboarding(c.get('ctx'), botOf(c), guildOf(c))));
  r.put('/guilds/:guild_id/onboarding', async (c) => {
    const principal = botOf(c);
    const guildId = guildOf(c);
    return c.json(await modifyOnboarding(c.get('ctx'), principal, guildId, await readJson(c, ModifyOnboardingSchema)));
  });

  r.put('/guilds/:guild_id/incident-actions', async (c) => {
    const principal = botOf(c);
    const guildId = guildOf(c);
    return c.json(
      await modifyIncidentActions(c.get('ctx'), principal, guildId, await readJson(c, IncidentActionsSchema)),
    );
  });

  r.get('/guilds/:guild_id/integrations', async (c) =>
    c.json(await listGuildIntegrations(c.get('ctx'), botOf(c), guildOf(c))),
  );
  r.delete('/guilds/:guild_id/integrations/:integration_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, integration_id } = validate(GuildSettingsPathSchema, c.req.param());
    await deleteGuildIntegration(c.get('ctx'), principal, guild_id, integration_id!);
    return noContent();
  });

  r.get('/guilds/:guild_id/preview', async (c) => c.json(await getGuildPreview(c.get('ctx'), botOf(c), guildOf(c))));
  r.get('/guilds/:guild_id/vanity-url', async (c) => c.json(await getVanityUrl(c.get('ctx'), botOf(c), guildOf(c))));

  r.post('/invites/:code/target-users/bulk-add', async (c) => {
    const principal = botOf(c);
    const { code } = validate(InviteCodePathSchema, c.req.param());
    const { user_ids } = await readJson(c, TargetUsersBulkSchema);
    await editTargetUsers(c.get('ctx'), principal, code, user_ids, true);
    return noContent();
  });
  r.post('/invites/:code/target-users/bulk-delete', async (c) => {
    const principal = botOf(c);
    const { code } = validate(InviteCodePathSchema, c.req.param());
    const { user_ids } = await readJson(c, TargetUsersBulkSchema);
    await editTargetUsers(c.get('ctx'), principal, code, user_ids, false);
    return noContent();
  });
  r.put('/invites/:code/target-users/:user_id', async (c) => {
    const { code, user_id } = validate(TargetUserPathSchema, c.req.param());
    await editTargetUser(c.get('ctx'), botOf(c), code, user_id, true);
    return noContent();
  });
  r.delete('/invites/:code/target-users/:user_id', async (c) => {
    const { code, user_id } = validate(TargetUserPathSchema, c.req.param());
    await editTargetUser(c.get('ctx'), botOf(c), code, user_id, false);
    return noContent();
  });

  return r;
}

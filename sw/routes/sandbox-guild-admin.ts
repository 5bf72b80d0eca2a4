/**
 * Sandbox routes for what the platform's own client does in a guild (CONTRACT §3 allows more):
 * a user accepting an invite, a user joining or leaving a voice channel, and a user choosing
 * the guild tag they wear (`primary_guild`). JSON in and out, no auth header.
 */
import { Hono } from 'hono';
import { setPrimaryGuild } from '../../src/platform/guilds/primary-guild';
import { acceptInvite } from '../../src/platform/channels/invites-accept';
import { serializeUser } from '../../src/platform/accounts/users';
import { putSandboxVoiceState } from '../../src/platform/voice/states';
import { readJson, validate, type AppEnv, snowflakeParam } from '../http';
import { InviteCodePathSchema } from '../../src/platform/channels/schemas';
import { SandboxAcceptInviteSchema, SandboxPrimaryGuildSchema } from '../../src/platform/guilds/schemas';
import { SandboxVoiceStatePathSchema, SandboxVoiceStateSchema } from '../../src/platform/voice/schemas';

/** The guild sandbox routes, mounted at `/sandbox`. */
export function sandboxGuildAdminRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/invites/:code/accept', async (c) => {
    const { code } = validate(InviteCodePathSchema, c.req.param());
    const { user_id } = await readJson(c, SandboxAcceptInviteSchema);
    return c.json(await acceptInvite(c.get('ctx'), code, user_id));
  });

  r.put('/guilds/:guild_id/voice-states/:user_id', async (c) => {
    const { guild_id, user_id } = validate(SandboxVoiceStatePathSchema, c.req.param());
    const { channel_id } = await readJson(c, SandboxVoiceStateSchema);
    return c.json({ voice_state: await putSandboxVoiceState(c.get('ctx'), guild_id, user_id, channel_id) });
  });

  r.put('/users/:user_id/primary-guild', async (c) => {
    const user_id = snowflakeParam(c, 'user_id');
    const body = await readJson(c, SandboxPrimaryGuildSchema);
    return c.json({ user: serializeUser(await setPrimaryGuild(c.get('ctx'), user_id, body)) });
  });

  r.delete('/users/:user_id/primary-guild', async (c) => {
    const user_id = snowflakeParam(c, 'user_id');
    return c.json({ user: serializeUser(await setPrimaryGuild(c.get('ctx'), user_id, null)) });
  });

  return r;
}

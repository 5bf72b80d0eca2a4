/**
 * Sandbox routes for what the platform's own client does in a guild (CONTRACT §3 allows more):
 * a user accepting an invite, a user joining or leaving a voice channel, and a user choosing
 * the guild tag they wear (`primary_guild`). JSON in and out, no auth header.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { setPrimaryGuild } from '../../src/platform/guilds/primary-guild';
import { acceptInvite } from '../../src/platform/channels/invites-accept';
import { serializeUser } from '../../src/platform/accounts/users';
import { putSandboxVoiceState } from '../../src/platform/voice/states';
import { readJson, schemas, validate, type AppEnv } from '../http';

const AcceptBody = v.object({ user_id: schemas.snowflake });
const VoiceStateBody = v.object({ channel_id: v.nullable(schemas.snowflake) });
const PrimaryGuildBody = v.object({
  guild_id: schemas.snowflake,
  tag: v.string('Must be a string.'),
  badge: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64)))),
});

/** The guild sandbox routes, mounted at `/sandbox`. */
export function sandboxGuildAdminRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/invites/:code/accept', async (c) => {
    const { code } = validate(v.object({ code: v.pipe(v.string(), v.minLength(1)) }), c.req.param());
    const { user_id } = await readJson(c, AcceptBody);
    return c.json(await acceptInvite(c.get('ctx'), code, user_id));
  });

  r.put('/guilds/:guild_id/voice-states/:user_id', async (c) => {
    const { guild_id, user_id } = validate(
      v.object({ guild_id: schemas.snowflake, user_id: schemas.snowflake }),
      c.req.param(),
    );
    const { channel_id } = await readJson(c, VoiceStateBody);
    return c.json({ voice_state: await putSandboxVoiceState(c.get('ctx'), guild_id, user_id, channel_id) });
  });

  r.put('/users/:user_id/primary-guild', async (c) => {
    const { user_id } = validate(v.object({ user_id: schemas.snowflake }), c.req.param());
    const body = await readJson(c, PrimaryGuildBody);
    return c.json({ user: serializeUser(await setPrimaryGuild(c.get('ctx'), user_id, body)) });
  });

  r.delete('/users/:user_id/primary-guild', async (c) => {
    const { user_id } = validate(v.object({ user_id: schemas.snowflake }), c.req.param());
    return c.json({ user: serializeUser(await setPrimaryGuild(c.get('ctx'), user_id, null)) });
  });

  return r;
}

/**
 * Voice states without a gateway connection: `GET /guilds/{guild.id}/voice-states/@me` (the
 * caller's own) and `GET /guilds/{guild.id}/voice-states/{user.id}`. Open to bots and to OAuth2
 * tokens with the `guilds` scope of a member.
 */
import { Hono } from 'hono';
import { getVoiceState } from '../../src/platform/voice/states';
import { validate, type AppContext, type AppEnv } from '../http';
import { VoiceStatePathSchema } from '../../src/platform/voice/schemas';

/** The caller: a bot, or an OAuth2 token with the `guilds` scope (the access table's). */
const reader = (c: AppContext) => c.get('principal');

/** The voice state routes, mounted at the API root. */
export function voiceStateRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  // Registered before `/:user_id` so that `@me` is the caller, not an id.
  r.get('/guilds/:guild_id/voice-states/@me', async (c) => {
    const principal = reader(c);
    const { guild_id } = validate(VoiceStatePathSchema, c.req.param());
    return c.json(await getVoiceState(c.get('ctx'), principal, guild_id, principal.user.id));
  });
  r.get('/guilds/:guild_id/voice-states/:user_id', async (c) => {
    const principal = reader(c);
    const { guild_id, user_id } = validate(VoiceStatePathSchema, c.req.param());
    return c.json(await getVoiceState(c.get('ctx'), principal, guild_id, user_id!));
  });
  return r;
}

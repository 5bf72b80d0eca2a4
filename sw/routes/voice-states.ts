/**
 * Voice states without a gateway connection: `GET /guilds/{guild.id}/voice-states/@me` (the
 * caller's own) and `GET /guilds/{guild.id}/voice-states/{user.id}`. Open to bots and to OAuth2
 * tokens with the `guilds` scope of a member. The `PATCH` routes (stage channels: suppress and
 * requests to speak) are for bots.
 */
import { Hono } from 'hono';
import { getVoiceState } from '../../src/platform/voice/states';
import { botOf, noContent, readJson, validate, type AppContext, type AppEnv } from '../http';
import { modifyStageVoiceState } from '../../src/platform/voice/stage-voice-states';
import {
  ModifyCurrentVoiceStateSchema,
  ModifyUserVoiceStateSchema,
  VoiceStatePathSchema,
} from '../../src/platform/voice/schemas';

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
  r.patch('/guilds/:guild_id/voice-states/@me', async (c) => {
    const principal = botOf(c);
    const { guild_id } = validate(VoiceStatePathSchema, c.req.param());
    const body = await readJson(c, ModifyCurrentVoiceStateSchema);
    await modifyStageVoiceState(c.get('ctx'), principal, guild_id, principal.user.id, body);
    return noContent();
  });
  r.patch('/guilds/:guild_id/voice-states/:user_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, user_id } = validate(VoiceStatePathSchema, c.req.param());
    const body = await readJson(c, ModifyUserVoiceStateSchema);
    await modifyStageVoiceState(c.get('ctx'), principal, guild_id, user_id!, body);
    return noContent();
  });
  return r;
}

/**
 * Voice regions: `GET /voice/regions` and `GET /guilds/{guild.id}/regions`. Mounted at the API root.
 */
import { Hono } from 'hono';
import { listGuildVoiceRegions, listVoiceRegions } from '../../src/platform/voice/regions';
import { snowflakeParam, type AppEnv } from '../http';

/** The voice region routes. */
export function voiceRegionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/voice/regions', (c) => c.json(listVoiceRegions()));
  r.get('/guilds/:guild_id/regions', async (c) =>
    c.json(await listGuildVoiceRegions(c.get('ctx'), c.get('principal'), snowflakeParam(c, 'guild_id'))),
  );
  return r;
}

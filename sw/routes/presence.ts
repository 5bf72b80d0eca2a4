/**
 * `/users/@me/activities`: the caller's rich presence for the calling application. The RPC
 * host's SET_ACTIVITY writes through it; a game's SDK may as well.
 */
import { Hono } from 'hono';
import { getPresence, setActivity } from '../../src/platform/presence/presence';
import { bearerOf, readJson, type AppEnv } from '../http';
import { PutActivitySchema } from '../../src/platform/presence/presence';

/** The presence routes, mounted at `/users/@me/activities`. */
export function presenceRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/', async (c) => {
    const principal = bearerOf(c);
    const presence = await getPresence(c.get('ctx'), principal.user.id);
    return c.json({
      activities: (presence?.activities ?? []).filter((a) => a.application_id === principal.application.id),
    });
  });

  r.put('/', async (c) => {
    const principal = bearerOf(c);
    const body = await readJson(c, PutActivitySchema);
    const activity = await setActivity(c.get('ctx'), {
      userId: principal.user.id,
      applicationId: principal.application.id,
      activity: body.activity,
    });
    return c.json({ activity });
  });

  return r;
}

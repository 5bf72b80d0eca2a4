/**
 * `/users/@me/activities`: the caller's rich presence for the calling application. The RPC
 * host's SET_ACTIVITY writes through it; a game's SDK may as well.
 */
import { Hono } from 'hono';
import { requireBearer } from '../../src/platform/oauth2/auth';
import { ApiError } from '../../src/platform/core/errors';
import { getPresence, setActivity } from '../../src/platform/presence/presence';
import { readJson, type AppEnv } from '../http';
import { PutActivitySchema } from '../../src/platform/presence/presence';

/** Scopes that let an application set the user's activity: over RPC, or with the SDK's presence scope. */
const ACTIVITY_WRITE_SCOPES = ['rpc.activities.write', 'activities.write'];

/** The presence routes, mounted at `/users/@me/activities`. */
export function presenceRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/', async (c) => {
    const principal = c.get('principal');
    requireBearer(principal);
    const presence = await getPresence(c.get('ctx'), principal.user.id);
    return c.json({
      activities: (presence?.activities ?? []).filter((a) => a.application_id === principal.application.id),
    });
  });

  r.put('/', async (c) => {
    const principal = c.get('principal');
    requireBearer(principal);
    if (!ACTIVITY_WRITE_SCOPES.some((s) => principal.scopes.has(s))) {
      throw ApiError.of('MISSING_ACCESS', 'Missing OAuth2 scope: rpc.activities.write');
    }
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

/**
 * The application as its own bot reads it: `GET /applications/@me`, `GET /applications/{id}`
 * and `GET /oauth2/applications/@me` (bot token only, as the public docs give them).
 */
import { Hono } from 'hono';
import { readApplication, readCurrentApplication } from '../../src/platform/accounts/current-application';
import { botOf, snowflakeParam, type AppEnv } from '../http';

/** `GET /applications/@me` and `GET /applications/{application.id}`, mounted at `/applications`. */
export function applicationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/@me', async (c) => c.json(await readCurrentApplication(c.get('ctx'), botOf(c))));
  // After `/@me`, which the parameter would otherwise take.
  r.get('/:application_id', async (c) =>
    c.json(await readApplication(c.get('ctx'), botOf(c), snowflakeParam(c, 'application_id'))),
  );
  return r;
}

/** `GET /oauth2/applications/@me` (Get Current Bot Application Information), mounted at `/oauth2/applications`. */
export function oauth2ApplicationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/@me', async (c) => c.json(await readCurrentApplication(c.get('ctx'), botOf(c))));
  return r;
}

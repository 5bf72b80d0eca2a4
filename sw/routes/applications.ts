/**
 * The application as its own bot reads it: `GET /applications/@me`, `GET /applications/{id}`
 * and `GET /oauth2/applications/@me` (bot token only, as the public docs give them).
 */
import { Hono } from 'hono';
import { readApplication, readCurrentApplication } from '../../src/platform/accounts/current-application';
import { modifyApplication } from '../../src/platform/accounts/application-edits';
import { ModifyApplicationSchema } from '../../src/platform/accounts/schemas';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { botOf, readJson, snowflakeParam, type AppEnv } from '../http';

/**
 * `GET` / `PATCH /applications/@me` and `/applications/{application.id}`, mounted at
 * `/applications`. `send` reaches a new interactions endpoint URL with its PING.
 */
export function applicationRoutes(send: FetchLike = (request) => fetch(request)): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/@me', async (c) => c.json(await readCurrentApplication(c.get('ctx'), botOf(c))));
  r.patch('/@me', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, ModifyApplicationSchema);
    return c.json(await modifyApplication(c.get('ctx'), principal, principal.application.id, body, send));
  });
  // After `/@me`, which the parameter would otherwise take.
  r.get('/:application_id', async (c) =>
    c.json(await readApplication(c.get('ctx'), botOf(c), snowflakeParam(c, 'application_id'))),
  );
  r.patch('/:application_id', async (c) => {
    const principal = botOf(c);
    const id = snowflakeParam(c, 'application_id');
    const body = await readJson(c, ModifyApplicationSchema);
    return c.json(await modifyApplication(c.get('ctx'), principal, id, body, send));
  });
  return r;
}

/** `GET /oauth2/applications/@me` (Get Current Bot Application Information), mounted at `/oauth2/applications`. */
export function oauth2ApplicationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/@me', async (c) => c.json(await readCurrentApplication(c.get('ctx'), botOf(c))));
  return r;
}

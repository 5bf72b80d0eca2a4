/**
 * `GET /users/@me/connections`: the current user's connections (Bearer token with scope
 * `connections`), without the game-publisher connections the spec no longer returns.
 */
import { Hono } from 'hono';
import { listConnections } from '../../src/platform/accounts/connections';
import { bearerOf, type AppEnv } from '../http';

/** The `/users/@me/connections` routes. */
export function connectionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/', async (c) => {
    return c.json(await listConnections(c.get('ctx'), bearerOf(c).user.id));
  });
  return r;
}

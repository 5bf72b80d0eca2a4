/**
 * `GET /users/@me/connections`: the current user's connections (Bearer token with scope
 * `connections`), without the game-publisher connections the spec no longer returns.
 */
import { Hono } from 'hono';
import { requireBearer, requireScope } from '../../src/platform/oauth2/auth';
import { listConnections } from '../../src/platform/accounts/connections';
import type { AppEnv } from '../http';

/** The `/users/@me/connections` routes. */
export function connectionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/', async (c) => {
    const principal = c.get('principal');
    requireBearer(principal);
    requireScope(principal, 'connections');
    return c.json(await listConnections(c.get('ctx'), principal.user.id));
  });
  return r;
}

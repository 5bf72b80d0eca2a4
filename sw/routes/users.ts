/**
 * `/users` routes: the current user, and Get User by id.
 */
import { Hono } from 'hono';
import { serializeCurrentUser } from '../../src/platform/accounts/users';
import { readUser } from '../../src/platform/accounts/user-reads';
import { snowflakeParam, type AppEnv } from '../http';

/** The `/users` routes. */
export function userRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/@me', (c) => {
    const principal = c.get('principal');
    return c.json(serializeCurrentUser(principal));
  });
  // After `/@me`, which the parameter would otherwise take.
  r.get('/:user_id', async (c) =>
    c.json(await readUser(c.get('ctx'), c.get('principal'), snowflakeParam(c, 'user_id'))),
  );
  return r;
}

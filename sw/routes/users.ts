/**
 * `/users` routes: the current user.
 */
import { Hono } from 'hono';
import { serializeCurrentUser } from '../../src/platform/accounts/users';
import type { AppEnv } from '../http';

/** The `/users` routes. */
export function userRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/@me', (c) => {
    const principal = c.get('principal');
    return c.json(serializeCurrentUser(principal));
  });
  return r;
}

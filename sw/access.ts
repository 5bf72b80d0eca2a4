/**
 * The app's door: every request to a route is checked against the access table
 * (`src/platform/oauth2/route-access-table.ts`) before the route runs, so which tokens and scopes
 * a route takes is written once, and the routes, the docs' table and the tests all read it there.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { admit, routeKeyOf } from '../src/platform/oauth2/route-access';
import { accessOf } from '../src/platform/oauth2/route-access-table';
import type { AppEnv } from './http';

/**
 * The middleware that admits the caller of the route a request matched (401, 403 or on), and
 * keeps it as the request's `principal`. The route that answers is the first matched handler, as
 * hono runs them (`/members/@me` before `/members/:user_id`).
 * @example app.use('*', admitCaller());
 */
export function admitCaller(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const route = matchedRoutes(c).find((r) => r.method !== 'ALL');
    if (route) {
      const key = routeKeyOf(route.method, route.path);
      const access = accessOf(key);
      // Closed unless the table names the route: a route added without its entry is a bug (500), never open.
      if (!access) throw new Error(`The route ${key} has no entry in the access table.`);
      const principal = await admit(c.get('ctx'), access, c.req.header('Authorization'));
      if (principal) c.set('principal', principal);
    }
    await next();
  };
}

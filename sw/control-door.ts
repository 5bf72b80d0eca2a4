/**
 * The door of the sandbox control API on a deployed server. The control API (CONTRACT §3, and
 * every other route the access table opens to `sandbox`, such as the consent decision
 * `POST /oauth2/authorize`) resets data, creates users and mints tokens for any of them: on a
 * deployment it answers only a request that carries the deployment's secret. The door reads the
 * access table, not paths, so a control route added under any path is behind it.
 *
 * In the browser and on a local server there is no secret and the door stands open, as the
 * sandbox is the developer's own. The app's calls to itself (webhook deliveries to its own sinks)
 * come from inside and pass.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { ApiError } from '../src/platform/core/errors';
import { routeKeyOf } from '../src/platform/oauth2/route-access';
import { accessOf } from '../src/platform/oauth2/route-access-table';
import { CONTROL_SECRET_HEADER } from '../src/wire/paths';
import type { AppEnv } from './http';

/**
 * How a host guards its control routes: `secret` is what a request must carry; `required`
 * closes them even when no secret is set (a deployment whose secret was forgotten is closed).
 */
export interface ControlGuard {
  secret?: string;
  required?: boolean;
}

/**
 * Whether a host with `guard` keeps its control routes behind a secret.
 * @example isGuarded({ secret: 'x' }) // true
 */
export function isGuarded(guard: ControlGuard | undefined): boolean {
  return Boolean(guard?.secret) || guard?.required === true;
}

/**
 * Whether `given` is the control secret, compared in time that does not depend on where they
 * differ.
 * @example controlSecretMatches(request.headers.get(CONTROL_SECRET_HEADER), env.SANDBOX_CONTROL_SECRET)
 */
export function controlSecretMatches(given: string | null | undefined, secret: string): boolean {
  if (given == null) return false;
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(secret);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i] ?? 0) ^ b[i];
  return difference === 0;
}

/**
 * The middleware that refuses (401) a request to a control route without the secret, when the
 * host is guarded. It runs before anything reads the body or writes.
 * @example app.use('*', guardControl({ secret: env.SANDBOX_CONTROL_SECRET }));
 */
export function guardControl(guard: ControlGuard | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (isGuarded(guard) && !c.env?.internal) {
      const route = matchedRoutes(c).find((r) => r.method !== 'ALL');
      const access = route && accessOf(routeKeyOf(route.method, route.path));
      if (
        access?.open === 'sandbox' &&
        !(guard?.secret && controlSecretMatches(c.req.header(CONTROL_SECRET_HEADER), guard.secret))
      ) {
        throw ApiError.of(
          'UNAUTHORIZED',
          `401: Unauthorized (this sandbox's control routes need its secret in ${CONTROL_SECRET_HEADER})`,
        );
      }
    }
    await next();
  };
}

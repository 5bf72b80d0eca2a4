/**
 * The platform's HTTP rate limits, when the sandbox has them on (`PUT /sandbox/rate-limits`, or
 * a server started with `--rate-limits`): every API route is a bucket, counted per caller and
 * per major parameter (`channel_id`, `guild_id`, `webhook_id` with its token), as the platform
 * counts, beside the caller's global limit per second. Answers carry `X-RateLimit-Limit`,
 * `-Remaining`, `-Reset`, `-Reset-After` and `-Bucket`; a request over a limit is a 429 with
 * `retry_after` and `global`, `Retry-After` and `X-RateLimit-Scope`, and reaches no route.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { rateLimitSettingOf } from '../src/platform/rate-limits/rate-limit-settings';
import { type BucketState, rateLimiterOf } from '../src/platform/rate-limits/rate-limiter';
import { pathSegments } from '../src/platform/faults/route-patterns';
import type { AppEnv } from './http';

/** The parameters that split a route's bucket, as the platform's major parameters do. */
const MAJOR_PARAMETERS = new Set([':channel_id', ':guild_id', ':webhook_id', ':webhook_token', ':interaction_token']);

/** Routes outside the global limit: interaction responses and webhooks, as on the platform. */
const OUTSIDE_GLOBAL = /^\/api\/(?:interactions|webhooks)\//;

/** A route's bucket id: a stable hash of its method and path, in hex (the platform's are opaque too). */
function bucketIdOf(routeKey: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < routeKey.length; i++) {
    a = Math.imul(a ^ routeKey.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ routeKey.charCodeAt(i), 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** The major parameters' values in a request path, read against its route's path. */
function majorOf(routePath: string, requestPath: string): string {
  const route = pathSegments(routePath);
  const request = pathSegments(requestPath);
  return route
    .map((segment, i) => (MAJOR_PARAMETERS.has(segment) ? request[i] : ''))
    .filter(Boolean)
    .join('/');
}

/** `X-RateLimit-*` for a bucket's state (seconds, with milliseconds, as the platform writes them). */
function bucketHeaders(headers: Headers, state: BucketState, bucket: string): void {
  headers.set('X-RateLimit-Limit', String(state.limit));
  headers.set('X-RateLimit-Remaining', String(Math.max(0, state.remaining)));
  headers.set('X-RateLimit-Reset', (state.resetAt / 1000).toFixed(3));
  headers.set('X-RateLimit-Reset-After', (state.resetAfterMs / 1000).toFixed(3));
  headers.set('X-RateLimit-Bucket', bucket);
}

/**
 * The 429 of a request over a limit: the platform's body and headers. `global` is the caller's
 * limit per second; otherwise the route's bucket (scope `user`, as every bucket here is the caller's).
 * @example rateLimitedResponse(0.5, { global: true })
 */
export function rateLimitedResponse(
  retryAfterSeconds: number,
  options: { global: boolean; scope?: 'user' | 'global' | 'shared'; bucket?: { state: BucketState; id: string } },
): Response {
  const retryAfter = Math.round(retryAfterSeconds * 1000) / 1000;
  const headers = new Headers({
    'Content-Type': 'application/json',
    // The platform's 429s pass its edge proxy, which says so: discord.py takes a 429 without `Via`
    // for a block by the CDN and gives up instead of waiting `retry_after`.
    Via: '1.1 google',
    'Retry-After': String(Math.ceil(retryAfterSeconds)),
    'X-RateLimit-Scope': options.scope ?? (options.global ? 'global' : 'user'),
  });
  if (options.global) headers.set('X-RateLimit-Global', 'true');
  if (options.bucket) bucketHeaders(headers, options.bucket.state, options.bucket.id);
  // `code` 0: the official description requires one, and the platform sends 0 for an ordinary limit.
  const body = { message: 'You are being rate limited.', retry_after: retryAfter, global: options.global, code: 0 };
  return new Response(JSON.stringify(body), { status: 429, headers });
}

/**
 * The middleware that counts API requests when the sandbox's limits are on. `pathOf` is the
 * request's path as the app sees it (without its base path and `/.proxy`); `hostDefault` whether a
 * new sandbox of this host has limits on.
 * @example app.use('*', limitRates(pathOf, false));
 */
export function limitRates(pathOf: (url: string) => string, hostDefault: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const ctx = c.get('ctx');
    const settings = await rateLimitSettingOf(ctx, hostDefault).current();
    if (!settings.enabled) return next();
    const route = matchedRoutes(c).find((r) => r.method !== 'ALL');
    if (!route?.path.startsWith('/api/')) return next();
    const principal = c.get('principal');
    const caller = principal ? `${principal.kind}:${principal.application.id}:${principal.user.id}` : 'anonymous';
    const limiter = rateLimiterOf(ctx);
    const now = ctx.clock.now();
    if (principal && !OUTSIDE_GLOBAL.test(route.path)) {
      const global = limiter.take(`global|${caller}`, settings.global_per_second, 1000, now);
      if (!global.allowed) return rateLimitedResponse(global.resetAfterMs / 1000, { global: true });
    }
    const routeKey = `${route.method} ${route.path}`;
    const bucket = bucketIdOf(routeKey);
    const path = pathOf(c.req.url);
    const state = limiter.take(
      `${caller}|${bucket}|${majorOf(route.path, path)}`,
      settings.route_limit,
      settings.route_window_ms,
      now,
    );
    if (!state.allowed)
      return rateLimitedResponse(state.resetAfterMs / 1000, { global: false, bucket: { state, id: bucket } });
    await next();
    bucketHeaders(c.res.headers, state, bucket);
  };
}

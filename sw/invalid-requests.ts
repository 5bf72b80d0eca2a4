/**
 * The platform's invalid-request limit, when the sandbox has rate limits on: answers of 401, 403
 * or 429 to the API (a 429 of scope `shared` excepted, as the platform excepts it) are counted in
 * a window of the sandbox clock (10,000 per 10 minutes by default, as published); once the
 * window holds that many, every API request is refused until it ends, as the platform's edge
 * restricts an IP. The sandbox counts as one IP: in the browser it is one machine, and on a
 * server the sandbox is one team's. The refusal is the edge's, not the API's: a 429 with a text
 * body and `Retry-After`, without `Via` or `X-RateLimit-*` (which is how client libraries tell a
 * block at the edge from a rate limit). The control API is never counted nor refused.
 */
import type { MiddlewareHandler } from 'hono';
import { rateLimitSettingOf } from '../src/platform/rate-limits/rate-limit-settings';
import { rateLimiterOf } from '../src/platform/rate-limits/rate-limiter';
import type { AppEnv } from './http';

/** The window's key among the limiter's (the route buckets' keys start with a caller). */
const INVALID_REQUESTS_KEY = 'invalid-requests';

/** What the edge answers while the sandbox is restricted (the body its CDN sends for a ban). */
export const RESTRICTED_BODY = 'error code: 1015';

/**
 * Whether an answer is an invalid request by the platform's rule.
 * @example isInvalidRequest(new Response(null, { status: 401 })) // true
 */
export function isInvalidRequest(response: Response): boolean {
  const { status } = response;
  if (status === 429) return response.headers.get('X-RateLimit-Scope') !== 'shared';
  return status === 401 || status === 403;
}

/** The refusal while restricted: `Retry-After` in whole seconds until the window ends. */
function restrictedResponse(retryAfterMs: number): Response {
  return new Response(RESTRICTED_BODY, {
    status: 429,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
  });
}

/**
 * The middleware that counts invalid requests and refuses every API request while the sandbox is
 * restricted. Placed before the faults and the route buckets: their 429s count, as the
 * platform's do. `pathOf` is the request's path as the app sees it.
 * @example app.use('*', restrictInvalidRequests(pathOf, false));
 */
export function restrictInvalidRequests(
  pathOf: (url: string) => string,
  hostDefault: boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!pathOf(c.req.url).startsWith('/api/')) return next();
    const ctx = c.get('ctx');
    const settings = await rateLimitSettingOf(ctx, hostDefault).current();
    if (!settings.enabled) return next();
    const limiter = rateLimiterOf(ctx);
    const until = limiter.exhaustedUntil(INVALID_REQUESTS_KEY, settings.invalid_request_limit, ctx.clock.now());
    if (until !== null) return restrictedResponse(until - ctx.clock.now());
    await next();
    if (isInvalidRequest(c.res))
      limiter.count(INVALID_REQUESTS_KEY, settings.invalid_request_window_ms, ctx.clock.now());
  };
}

/**
 * HTTP faults on demand (`POST /sandbox/faults` with `http_error` or `http_delay`): the next
 * requests matching a fault's method and path pattern answer 429 (with the platform's rate-limit
 * body and headers), 500, 502 or 503, or are held for a time before the app answers them. Each use
 * is committed before the answer, so a worker restarted meanwhile does not fail a request twice.
 * Control routes (`/sandbox/...`) never fault: a test must always be able to clear them.
 */
import type { MiddlewareHandler } from 'hono';
import { faultBookOf } from '../src/platform/faults/fault-book';
import type { FaultRecord } from '../src/platform/faults/fault-book';
import type { AppEnv } from './http';
import { rateLimitedResponse } from './rate-limits';

/** The bodies of the 5xx a fault answers, as the platform's edge words them. */
const SERVER_ERRORS: Record<number, string> = {
  500: '500: Internal Server Error',
  502: '502: Bad Gateway',
  503: '503: Service Unavailable',
};

/** The answer an `http_error` fault gives. */
function faultResponse(fault: Extract<FaultRecord, { type: 'http_error' }>): Response {
  if (fault.status === 429) return rateLimitedResponse(fault.retry_after, { global: false });
  return new Response(JSON.stringify({ message: SERVER_ERRORS[fault.status], code: 0 }), {
    status: fault.status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * The middleware that applies pending HTTP faults. `pathOf` is the request's path as the app
 * sees it (without its base path and `/.proxy`).
 * @example app.use('*', injectHttpFaults(pathOf));
 */
export function injectHttpFaults(pathOf: (url: string) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = pathOf(c.req.url);
    if (path === '/sandbox' || path.startsWith('/sandbox/')) return next();
    const fault = await faultBookOf(c.get('ctx')).takeHttp(c.req.method, path);
    if (!fault) return next();
    if (fault.type === 'http_error') return faultResponse(fault);
    if (fault.type === 'http_delay') await new Promise((resolve) => setTimeout(resolve, fault.delay_ms));
    return next();
  };
}

/**
 * Faults on demand and the rate-limit setting (docs/sandbox.md): `POST /sandbox/faults` injects
 * one, `GET` lists the pending ones and the latest injected, `DELETE` clears the pending ones;
 * `GET` / `PUT /sandbox/rate-limits` read and change whether the sandbox's HTTP API is rate
 * limited. An injected fault is announced, so the gateway acts on its own kinds and pages show it
 * in their event stream; a reset forgets every fault and the setting.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { ApiError } from '../../src/platform/core/errors';
import { faultBookOf } from '../../src/platform/faults/fault-book';
import { extraTargetField, FaultSchema, RateLimitSettingsSchema } from '../../src/platform/faults/fault-schemas';
import { patternMatchesARoute } from '../../src/platform/faults/route-patterns';
import { type RateLimitSettings, rateLimitSettingOf } from '../../src/platform/rate-limits/rate-limit-settings';
import { rateLimiterOf } from '../../src/platform/rate-limits/rate-limiter';
import type { FaultSpec } from '../../src/store/records/faults';
import { noContent, readJson, type AppEnv } from '../http';

/** How the host sets the routes up. */
export interface SandboxFaultOptions {
  /** The platform's routes (`platformRouteList`), against which a fault's path pattern is checked. */
  routes: () => readonly { method: string; path: string }[];
  /** Whether a new sandbox of this host has rate limits on. */
  rateLimitsByDefault: boolean;
  /** The browser host: the only one with a shared worker and a service worker to stop. */
  browser: boolean;
}

/** The setting as the API shows it (the window in seconds, as the platform's headers count). */
function settingsJson(s: Required<RateLimitSettings>) {
  return {
    enabled: s.enabled,
    route_limit: s.route_limit,
    route_window_seconds: s.route_window_ms / 1000,
    global_per_second: s.global_per_second,
    invalid_request_limit: s.invalid_request_limit,
    invalid_request_window_seconds: s.invalid_request_window_ms / 1000,
  };
}

/** Refuses what the schema cannot judge alone: two targets, a pattern of no route, a host's own fault elsewhere. */
function checkFault(spec: FaultSpec, options: SandboxFaultOptions): void {
  const extra = extraTargetField(spec as unknown as Record<string, unknown>);
  if (extra) throw ApiError.invalidForm({ [extra]: 'Give at most one of session_id, user_id and application_id.' });
  if (spec.type === 'http_error' || spec.type === 'http_delay') {
    const routes = options.routes().filter((r) => !r.path.startsWith('/sandbox'));
    if (!patternMatchesARoute(spec.method, spec.path, routes))
      throw ApiError.invalidForm({
        path: `No route of the platform answers ${spec.method === '*' ? 'any method' : spec.method} on this path.`,
      });
  }
  if (spec.type === 'stop_shared_worker' && !options.browser)
    throw ApiError.invalidForm({ type: 'Only the browser host has a shared worker to stop.' });
  if (spec.type === 'stop_service_worker' && !options.browser)
    throw ApiError.invalidForm({ type: 'Only the browser host has a service worker to stop.' });
}

/** The `/sandbox` routes of faults and rate limits. */
export function sandboxFaultRoutes(options: SandboxFaultOptions): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const settingOf = (c: { get(key: 'ctx'): AppEnv['Variables']['ctx'] }) =>
    rateLimitSettingOf(c.get('ctx'), options.rateLimitsByDefault);

  r.post('/faults', async (c) => {
    const spec = (await readJson(c, FaultSchema)) as FaultSpec;
    checkFault(spec, options);
    const ctx = c.get('ctx');
    const fault = await faultBookOf(ctx).inject(spec, ctx);
    ctx.announce({ type: 'fault', fault });
    return c.json({ fault }, 201);
  });

  r.get('/faults', async (c) => {
    const { pending, history } = await faultBookOf(c.get('ctx')).state();
    return c.json({ pending, history });
  });

  r.delete('/faults', async (c) => {
    await faultBookOf(c.get('ctx')).clear(c.get('ctx'));
    return noContent();
  });

  r.get('/rate-limits', async (c) => c.json(settingsJson(await settingOf(c).current())));

  r.put('/rate-limits', async (c) => {
    const change = await readJson(c, RateLimitSettingsSchema);
    const next = await settingOf(c).change(change, c.get('ctx'));
    // New numbers start with full buckets rather than judging old counts by them.
    rateLimiterOf(c.get('ctx')).clear();
    return c.json(settingsJson(next));
  });

  return r;
}

/**
 * After `POST /sandbox/reset` emptied the store: the copies in memory of the faults and the
 * rate-limit setting are dropped, and every bucket is full again.
 * @example app.use('/sandbox/reset', forgetControlsAfterReset(false));
 */
export function forgetControlsAfterReset(rateLimitsByDefault: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'POST' || c.res.status >= 300) return;
    const ctx = c.get('ctx');
    faultBookOf(ctx).forget();
    rateLimitSettingOf(ctx, rateLimitsByDefault).forget();
    rateLimiterOf(ctx).clear();
  };
}

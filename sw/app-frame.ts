/**
 * The frame of the platform's HTTP app, without its routes: the edge every request passes
 * (activity proxy, unknown routes, control door, invalid requests, faults, idempotency, access,
 * rate limits), the answers' headers and errors, and the app over a context with the routes a
 * host mounts on it. `./app` mounts every route (tests, the server); the service worker starts
 * with the lobbies' routes and loads the others on first use (`./lazy-app`).
 */
import { Hono, type ExecutionContext, type MiddlewareHandler } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { SNOWFLAKE_WORKERS } from '../src/platform/core/snowflake';
import { createPlatformContext, type PlatformContext } from '../src/platform/core/context';
import { openPlatformStorage } from '../src/store/indexeddb/open';
import type { PlatformStorage } from '../src/store/schema';
import type { Announcement } from '../src/platform/core/announcements';
import { ApiError } from '../src/platform/core/errors';
import { errorResponse, type AppEnv } from './http';
import { stripBasePath, stripProxyPrefix, withoutApiVersion } from './paths';
import { forwardUrlMapping } from './routes/url-mapping-proxy';
import { MAPPED_TARGET_HEADER } from '../src/wire/proxy-log';
import { injectHttpFaults } from './http-faults';
import { restrictInvalidRequests } from './invalid-requests';
import { limitRates } from './rate-limits';
import type { AppWebhooks } from './webhooks';
import { applyOnce, repeatAnswer, type WorkerStarts } from './idempotency';
import { admitCaller } from './access';
import { type ControlGuard, guardControl } from './control-door';
import type { FetchLike } from '../src/platform/oauth2/oidc';
import type { WebhookOutbox } from '../src/platform/webhooks/outbox';

/** The header every response of the platform carries, so a client can tell who answered. */
export const SERVED_BY_HEADER = 'X-Served-By';
export const SERVED_BY = 'platformpp-sw';

/** The app as the service worker and tests use it. */
export interface PlatformApp {
  /**
   * Answers a request. `lifetime` is the service worker's FetchEvent: background work the
   * request starts (the webhook outbox) is handed to its `waitUntil`.
   */
  fetch(
    request: Request,
    lifetime?: { waitUntil(promise: Promise<unknown>): void; clientId?: string },
  ): Promise<Response>;
  /** The context the app runs against (tests read the store through it). */
  ctx: PlatformContext;
  /** The webhook outbox (tests await `webhooks.settled()`). */
  webhooks: WebhookOutbox;
  /**
   * Forwards a request the platform does not own to its URL mapping's target (see
   * `routes/url-mapping-proxy.ts`); undefined when no mapping applies, so the service worker
   * goes on to the precache or the network.
   */
  forwardMapped(request: Request): Promise<Response | undefined>;
  /**
   * Answers a request to the platform's CDN origin (`https://cdn.discordapp.com/...`): images
   * stored or generated, and attachments (see `routes/cdn.ts`).
   */
  cdn(request: Request): Promise<Response>;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Where nothing tells the app of other starts (tests, a server): one start, and no other running.
 * A constant id (workerd refuses random values at a module's top level).
 */
const ONE_START: WorkerStarts = { current: 'this-start', isRunning: () => false };

/**
 * Marks an answer as the platform's: who answered, and `Date` by the platform clock, as an HTTP
 * server states its own time (the game SDK judges its 72-hour lobby history window by it).
 */
function stampHeaders(headers: Headers, ctx: PlatformContext, servedBy = SERVED_BY): void {
  headers.set(SERVED_BY_HEADER, servedBy);
  headers.set('Date', new Date(ctx.clock.now()).toUTCString());
}

/** A route path (`/api/v10/lobbies/:lobby_id`) as a regex source matching its paths. */
const patternOf = (path: string) =>
  path.replace(/[.*+?^${}()|[\]\\]/g, (ch) => (ch === '*' ? '.*' : `\\${ch}`)).replace(/:[A-Za-z0-9_]+/g, '[^/]+');

/** A route by method and path as the app registers it (`GET /api/lobbies/:lobby_id`). */
export interface RouteEntry {
  method: string;
  path: string;
}

/**
 * Which methods the app answers on which paths: one combined pattern per method, built once
 * from the app's routes (or a list of them), so that the check costs a fraction of a
 * microsecond per request.
 * @example routeTable(app).methodsFor('/api/v10/lobbies/1/messages') // ['GET', 'POST']
 */
export function routeTable(app: { routes: readonly RouteEntry[] }): {
  allows(method: string, path: string): boolean;
  methodsFor(path: string): string[];
} {
  const byMethod = new Map(
    METHODS.map((method) => {
      const sources = app.routes.filter((r) => r.method === method).map((r) => patternOf(r.path));
      return [method, new RegExp(`^(?:${sources.join('|') || '(?!)'})/?$`)] as const;
    }),
  );
  // hono answers HEAD with the GET route; the routes are registered without the API's version.
  const allows = (method: string, path: string) =>
    byMethod.get(method === 'HEAD' ? 'GET' : (method as (typeof METHODS)[number]))?.test(withoutApiVersion(path)) ??
    false;
  return { allows, methodsFor: (path) => METHODS.filter((method) => allows(method, path)) };
}

/** 404 / 0 for a path no route has, 405 / 0 (with `Allow`) for a method its routes do not take. */
function unknownRouteResponse(allowed: string[]): Response {
  const response = errorResponse(allowed.length > 0 ? ApiError.of('METHOD_NOT_ALLOWED') : ApiError.of('UNKNOWN_ROUTE'));
  if (allowed.length > 0) response.headers.set('Allow', allowed.join(', '));
  return response;
}

/** How a host sets the app up beyond its context. */
export interface AppOptions {
  /**
   * The path the platform is served under (a server's sandbox: `/s/team-a`); requests carry it,
   * and the absolute URLs the platform hands out start with it. Default: none.
   */
  basePath?: string;
  /** The {@link SERVED_BY_HEADER} value (default {@link SERVED_BY}). */
  servedBy?: string;
  /**
   * Where the gateway is a real WebSocket: its URL for a request (`ws://host/gateway`), answered
   * by `GET {base_url}/gateway` and `/gateway/bot`. Without it those routes do not exist.
   */
  gatewayUrl?: (publicOrigin: string) => string;
  /** This start of the service worker and which others still run (see `idempotency.ts`). */
  starts?: WorkerStarts;
  /** A deployed server's guard of its control routes (`control-door.ts`); none: they are open. */
  control?: ControlGuard;
  /**
   * Whether a new sandbox has HTTP rate limits on (`serve --rate-limits`); default off, and
   * `PUT /sandbox/rate-limits` changes it for one sandbox (`rate-limits.ts`).
   */
  rateLimits?: boolean;
}

/**
 * Mounts routes on the app: the API's once under `/api` (the app routes `/api/v10/...` as
 * `/api/...`, see `withoutApiVersion`). `send` is how webhook tests and PINGs reach their URL
 * (the app's outbox transport).
 */
export type MountRoutes = (
  app: Hono<AppEnv>,
  send: FetchLike,
  gatewayUrl?: AppOptions['gatewayUrl'],
  rateLimits?: boolean,
) => void;

/** How a host opens the platform for its app. */
export interface PlatformAppOptions {
  /** The database (default: IndexedDB, the browser's, named `dbName`). */
  db?: PlatformStorage;
  dbName?: string;
  broadcast?: (message: Announcement) => void;
  workerId?: number;
  /** How webhook deliveries reach other origins (default: the real `fetch`; tests pass a fake). */
  webhookFetch?: FetchLike;
  /** This start of the service worker and which others still run (see `idempotency.ts`). */
  starts?: WorkerStarts;
}

/**
 * Opens the platform's context (database, clock, ids) as the service worker and tests use it.
 * @example const ctx = await openPlatformContext({ dbName: 'test' });
 */
export async function openPlatformContext(options: PlatformAppOptions = {}): Promise<PlatformContext> {
  return createPlatformContext({
    db: options.db ?? (await openPlatformStorage(options.dbName)),
    workerId: options.workerId ?? SNOWFLAKE_WORKERS.serviceWorker,
    announce: options.broadcast,
    // The app is the only writer of what the read cache keeps (see read-cache.ts).
    readCache: true,
  });
}

/**
 * The edge of the app over a context, made once: it builds hono apps with the routes a mount
 * adds, and apps built by one frame share the edge's state (requests in flight, rate limits),
 * so that a host may answer some paths from an app with a few routes and the rest from one with
 * every route.
 * @example const build = appFrame(ctx, webhooks, {}); const app = build(mountPlatformRoutes);
 */
export function appFrame(
  ctx: PlatformContext,
  webhooks: AppWebhooks,
  options: AppOptions = {},
): (mount: MountRoutes) => Hono<AppEnv> {
  const basePath = options.basePath ?? '';
  // The table folds the API's version itself: it is given the path as requested.
  // Asked for by the router and by most middleware of every request: the last answer is kept.
  let lastUrl = '';
  let lastPath = '';
  const pathOf = (url: string) => {
    if (url !== lastUrl) {
      lastPath = stripProxyPrefix(stripBasePath(new URL(url).pathname, basePath));
      lastUrl = url;
    }
    return lastPath;
  };
  const stamp = (headers: Headers) => stampHeaders(headers, ctx, options.servedBy);
  // The activity proxy first: a mapped `/.proxy/<prefix>/...` (or an activity frame's
  // `/<prefix>/...`) goes to its target, and is none of the platform's routes; a path the
  // platform owns is never mapped, and goes on at once.
  const proxy: MiddlewareHandler<AppEnv> = async (c, next) => {
    const forwarded = await forwardUrlMapping(ctx, c.req.raw);
    forwarded?.headers.delete(MAPPED_TARGET_HEADER);
    if (forwarded) return forwarded;
    await next();
  };
  const edge: MiddlewareHandler<AppEnv>[] = [
    guardControl(options.control),
    // The edge restricts a sandbox that made too many invalid requests, before anything else answers.
    restrictInvalidRequests(pathOf, options.rateLimits ?? false),
    // A fault stands for the platform's edge failing: it answers before anything else runs.
    injectHttpFaults(pathOf),
    applyOnce(options.starts ?? ONE_START),
    admitCaller(),
    // After the caller is known: buckets and the global limit are the caller's.
    limitRates(pathOf, options.rateLimits ?? false),
  ];
  return (mount) => {
    // hono's default router tries its RegExpRouter first, which refuses routes where two
    // parameters share a prefix (`/lobbies/:lobby_id/members/:user_id` beside others) and falls back
    // to the TrieRouter: on every start of the worker, its first request paid for both.
    const app = new Hono<AppEnv>({
      getPath: (request) => withoutApiVersion(pathOf(request.url)),
      router: new TrieRouter(),
    });
    let routes: ReturnType<typeof routeTable> | undefined;
    app.use('*', proxy);
    app.use('*', async (c, next) => {
      c.set('ctx', ctx);
      c.set('publicOrigin', new URL(c.req.url).origin + basePath);
      // An unknown route is 404 and a wrong method 405 whatever the token: answered before any
      // route's middleware (authentication, scopes) could answer 401 or 403 instead.
      routes ??= routeTable(app);
      const path = pathOf(c.req.url);
      if (!routes.allows(c.req.method, path)) {
        const response = unknownRouteResponse(routes.methodsFor(path));
        stamp(response.headers);
        return response;
      }
      webhooks.saw(c);
      await next();
      stamp(c.res.headers);
      // After the answer is ready: deliveries of the events it committed, and retries now due.
      webhooks.kick(c);
    });
    for (const middleware of edge) app.use('*', middleware);
    mount(app, webhooks.send, options.gatewayUrl, options.rateLimits);

    app.notFound((c) => {
      // Reached only when a route's pattern matched but hono found no handler (kept as a safety net).
      routes ??= routeTable(app);
      const response = unknownRouteResponse(routes.methodsFor(pathOf(c.req.url)));
      stamp(response.headers);
      return response;
    });
    app.onError((error) => {
      const response = repeatAnswer(error) ?? errorResponse(error);
      stamp(response.headers);
      return response;
    });
    return app;
  };
}

/**
 * The platform's app as hosts use it, over the hono apps that answer: `appFor` names the app
 * for a request, `cdn` the CDN origin's (both may be built on first use).
 * @example platformAppFrom(ctx, webhooks, {}, { appFor: () => app, cdn: () => cdn });
 */
export function platformAppFrom(
  ctx: PlatformContext,
  webhooks: AppWebhooks,
  options: Pick<AppOptions, 'servedBy'>,
  apps: { appFor(request: Request): Hono<AppEnv> | Promise<Hono<AppEnv>>; cdn(): Hono | Promise<Hono> },
): PlatformApp {
  const servedBy = options.servedBy ?? SERVED_BY;
  return {
    ctx,
    cdn: async (request) => {
      const response = await (await apps.cdn()).fetch(request);
      response.headers.set(SERVED_BY_HEADER, servedBy);
      return response;
    },
    webhooks: webhooks.outbox,
    forwardMapped: async (request) => {
      const forwarded = await forwardUrlMapping(ctx, request);
      forwarded?.headers.set(SERVED_BY_HEADER, servedBy);
      return forwarded;
    },
    fetch: async (request, lifetime) => {
      const executionCtx: ExecutionContext | undefined = lifetime && {
        waitUntil: (p) => lifetime.waitUntil(p),
        passThroughOnException: () => undefined,
        props: {},
      };
      return (await apps.appFor(request)).fetch(request, { clientId: lifetime?.clientId }, executionCtx);
    },
  };
}

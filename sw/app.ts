/**
 * The platform's HTTP app: a hono app answering `/api/v10/...`, `/api/...`, `/sandbox/...` and
 * the OAuth2 endpoints, each also under `/.proxy/`, and forwarding URL-mapped requests. A plain `fetch(Request)` that the service
 * worker shell and unit tests call alike.
 */
import { Hono, type ExecutionContext } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { SNOWFLAKE_WORKERS } from '../src/platform/core/snowflake';
import { createPlatformContext, type PlatformContext } from '../src/platform/core/context';
import { openPlatformStorage } from '../src/store/indexeddb/open';
import type { PlatformStorage } from '../src/store/schema';
import type { Announcement } from '../src/platform/core/announcements';
import { ApiError } from '../src/platform/core/errors';
import { errorResponse, type AppEnv } from './http';
import { stripBasePath, stripProxyPrefix, withoutApiVersion } from './paths';
import { gatewayInfoRoutes } from './routes/gateway-info';
import { apiRoutes } from './routes/api';
import { sandboxRoutes } from './routes/sandbox';
import { oauth2Routes, openidDiscoveryRoutes } from './routes/oauth2';
import { partnerSdkRoutes } from './routes/partner-sdk';
import { sandboxAccountRoutes } from './routes/sandbox-accounts';
import { sandboxMonetizationRoutes } from './routes/sandbox-monetization';
import { sandboxRelationshipRoutes } from './routes/sandbox-relationships';
import { sandboxGroupDmRoutes } from './routes/group-dms';
import { sandboxGuildAdminRoutes } from './routes/sandbox-guild-admin';
import { sandboxScheduledEventRoutes } from './routes/sandbox-scheduled-events';
import { sandboxWebhookRoutes } from './routes/sandbox-webhooks';
import { interactionRoutes } from './routes/interactions';
import { webhookRoutes } from './routes/webhooks';
import { sandboxInteractionRoutes } from './routes/sandbox-interactions';
import { attachmentRoutes } from './routes/attachments';
import { sandboxMessageRoutes } from './routes/sandbox-messages';
import { sandboxReviewRoutes } from './routes/sandbox-reviews';
import { sandboxUserRoutes } from './routes/sandbox-users';
import { sandboxUrlMappingRoutes } from './routes/sandbox-url-mappings';
import { sandboxActivityRoutes } from './routes/sandbox-activities';
import { sandboxFixtureSetRoutes } from './routes/sandbox-fixture-sets';
import { forwardUrlMapping } from './routes/url-mapping-proxy';
import { MAPPED_TARGET_HEADER } from '../src/wire/proxy-log';
import { forgetControlsAfterReset, sandboxFaultRoutes } from './routes/sandbox-faults';
import { injectHttpFaults } from './http-faults';
import { restrictInvalidRequests } from './invalid-requests';
import { limitRates } from './rate-limits';
import { cdnApp } from './routes/cdn';
import { AppWebhooks } from './webhooks';
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

/**
 * Which methods the app answers on which paths: one combined pattern per method, built once
 * from the app's routes, so that the check costs a fraction of a microsecond per request.
 * @example routeTable(app).methodsFor('/api/v10/lobbies/1/messages') // ['GET', 'POST']
 */
export function routeTable(app: Hono<AppEnv>): {
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
 * Mounts every route of the platform on `app`, the API's once under `/api`: the app routes
 * `/api/v10/...` as `/api/...` (see `withoutApiVersion`). `send` is how webhook tests and PINGs
 * reach their URL (the app's outbox transport).
 */
function mountPlatformRoutes(
  app: Hono<AppEnv>,
  send: FetchLike,
  gatewayUrl?: AppOptions['gatewayUrl'],
  rateLimits = false,
): void {
  // OAuth2 first: its endpoints authenticate clients themselves, and the API's Bot/Bearer
  // middleware (registered for `/api/*`) must not run before them.
  app.route('/api/oauth2', oauth2Routes());
  app.route('/oauth2', oauth2Routes());
  app.route('/', openidDiscoveryRoutes());
  // The partner SDK's account endpoints authenticate by body or bot token themselves, like OAuth2.
  app.route('/api/partner-sdk', partnerSdkRoutes());
  // Interaction callbacks and webhooks: the interaction's or the webhook's token is the credential,
  // no Bot/Bearer header (`GET` / `PATCH` / `DELETE /webhooks/{id}` take a bot's, as the table says).
  app.route('/api/interactions', interactionRoutes());
  app.route('/api/webhooks', webhookRoutes());
  if (gatewayUrl)
    app.route(
      '/api',
      gatewayInfoRoutes((c) => gatewayUrl(c.get('publicOrigin'))),
    );
  app.route('/api', apiRoutes(send));
  app.route('/attachments', attachmentRoutes());
  app.route('/sandbox', sandboxRoutes());
  app.route('/sandbox', sandboxAccountRoutes());
  app.route('/sandbox', sandboxMonetizationRoutes());
  app.route('/sandbox', sandboxRelationshipRoutes());
  app.route('/sandbox', sandboxGroupDmRoutes());
  app.route('/sandbox', sandboxGuildAdminRoutes());
  app.route('/sandbox', sandboxScheduledEventRoutes());
  app.route('/sandbox', sandboxMessageRoutes());
  app.route('/sandbox', sandboxReviewRoutes());
  app.route('/sandbox', sandboxUserRoutes());
  app.route('/sandbox', sandboxUrlMappingRoutes());
  app.route('/sandbox', sandboxActivityRoutes());
  app.route('/sandbox', sandboxFixtureSetRoutes());
  app.route('/sandbox', sandboxWebhookRoutes(send));
  app.route('/sandbox', sandboxInteractionRoutes(send));
  app.route(
    '/sandbox',
    sandboxFaultRoutes({ routes: platformRouteList, rateLimitsByDefault: rateLimits, browser: !gatewayUrl }),
  );
}

let platformRoutes: ReturnType<typeof routeTable> | undefined;
let routeList: { method: string; path: string }[] | undefined;

/** The routes alone, mounted on an app with no database; the gateway's discovery routes with `withGateway` (the server's). */
function routesOnlyApp(withGateway: boolean): Hono<AppEnv> {
  const routesOnly = new Hono<AppEnv>();
  const unused = () => Promise.reject(new Error('only the route table is read'));
  mountPlatformRoutes(routesOnly, unused, withGateway ? () => '' : undefined);
  return routesOnly;
}

/**
 * Every route of the platform (with the server's gateway discovery routes), by method and path
 * as the app registers them (`GET /api/lobbies/:lobby_id`): what tests and generated docs walk.
 * @example platformRouteList().filter((r) => r.method === 'GET')
 */
export function platformRouteList(): { method: string; path: string }[] {
  routeList ??= routesOnlyApp(true)
    .routes.filter((r) => r.method !== 'ALL')
    .map(({ method, path }) => ({ method, path }));
  return routeList.map((r) => ({ ...r }));
}

/**
 * Whether the platform has a route for `path` (without `/.proxy`), whatever the method: the
 * service worker asks before it takes an unversioned `/api/...` path from the activity's own
 * server. Built once from the routes alone, no database needed.
 * @example platformHasRoute('/api/users/@me') // true; platformHasRoute('/api/token') // false
 */
export function platformHasRoute(path: string): boolean {
  platformRoutes ??= routeTable(routesOnlyApp(false));
  return platformRoutes.methodsFor(path).length > 0;
}

/**
 * Builds the hono app over a context.
 * @example const app = buildApp(ctx); await app.fetch(new Request('http://x/api/v10/lobbies/1'));
 */
export function buildApp(
  ctx: PlatformContext,
  webhooks: AppWebhooks = new AppWebhooks(ctx),
  options: AppOptions = {},
): Hono<AppEnv> {
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
  // hono's default router tries its RegExpRouter first, which refuses routes where two
  // parameters share a prefix (`/lobbies/:lobby_id/members/:user_id` beside others) and falls back
  // to the TrieRouter: on every start of the worker, its first request paid for both.
  const app = new Hono<AppEnv>({
    getPath: (request) => withoutApiVersion(pathOf(request.url)),
    router: new TrieRouter(),
  });
  webhooks.serve(async (request) => app.fetch(request, { internal: true }), basePath);
  let routes: ReturnType<typeof routeTable> | undefined;
  const stamp = (headers: Headers) => stampHeaders(headers, ctx, options.servedBy);
  // The activity proxy first: a mapped `/.proxy/<prefix>/...` (or an activity frame's
  // `/<prefix>/...`) goes to its target, and is none of the platform's routes; a path the
  // platform owns is never mapped, and goes on at once.
  app.use('*', async (c, next) => {
    const forwarded = await forwardUrlMapping(ctx, c.req.raw);
    forwarded?.headers.delete(MAPPED_TARGET_HEADER);
    if (forwarded) return forwarded;
    await next();
  });
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
  app.use('*', guardControl(options.control));
  // The edge restricts a sandbox that made too many invalid requests, before anything else answers.
  app.use('*', restrictInvalidRequests(pathOf, options.rateLimits ?? false));
  // A fault stands for the platform's edge failing: it answers before anything else runs.
  app.use('*', injectHttpFaults(pathOf));
  app.use('*', applyOnce(options.starts ?? ONE_START));
  app.use('*', admitCaller());
  // After the caller is known: buckets and the global limit are the caller's.
  app.use('*', limitRates(pathOf, options.rateLimits ?? false));
  app.use('/sandbox/reset', forgetControlsAfterReset(options.rateLimits ?? false));
  mountPlatformRoutes(app, webhooks.send, options.gatewayUrl, options.rateLimits);

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
}

/**
 * Opens the platform (database, clock, ids) and returns its HTTP app.
 * @example const app = await createPlatformApp({ broadcast: (m) => channel.postMessage(m) });
 */
export async function createPlatformApp(
  options: {
    /** The database (default: IndexedDB, the browser's, named `dbName`). */
    db?: PlatformStorage;
    dbName?: string;
    broadcast?: (message: Announcement) => void;
    workerId?: number;
    /** How webhook deliveries reach other origins (default: the real `fetch`; tests pass a fake). */
    webhookFetch?: FetchLike;
    /** This start of the service worker and which others still run (see `idempotency.ts`). */
    starts?: WorkerStarts;
  } = {},
): Promise<PlatformApp> {
  const ctx = await createPlatformContext({
    db: options.db ?? (await openPlatformStorage(options.dbName)),
    workerId: options.workerId ?? SNOWFLAKE_WORKERS.serviceWorker,
    announce: options.broadcast,
    // The app is the only writer of what the read cache keeps (see read-cache.ts).
    readCache: true,
  });
  return platformAppOver(ctx, { webhookFetch: options.webhookFetch, starts: options.starts });
}

/**
 * The HTTP app over a context the host made (the server's sandbox shares it with its gateway).
 * @example const app = platformAppOver(ctx, { basePath: '/s/team-a', servedBy: 'platformpp-server' });
 */
export function platformAppOver(
  ctx: PlatformContext,
  options: AppOptions & { webhookFetch?: FetchLike } = {},
): PlatformApp {
  const webhooks = new AppWebhooks(ctx, options.webhookFetch);
  const app = buildApp(ctx, webhooks, options);
  // The app routes by path alone: the CDN's `/attachments/...` answers as the page origin's does.
  const cdn = cdnApp(ctx, async (request) => app.fetch(request));
  const servedBy = options.servedBy ?? SERVED_BY;
  return {
    ctx,
    cdn: async (request) => {
      const response = await cdn.fetch(request);
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
      return app.fetch(request, { clientId: lifetime?.clientId }, executionCtx);
    },
  };
}

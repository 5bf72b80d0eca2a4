/**
 * The platform's HTTP app: a hono app answering `/api/v10/...`, `/api/...`, `/sandbox/...` and
 * the OAuth2 endpoints, each also under `/.proxy/`, and forwarding URL-mapped requests. A plain `fetch(Request)` that the server
 * and unit tests call; the service worker answers with the same frame (`./app-frame`) and these
 * routes, loading them on first use (`./lazy-app`).
 */
import { Hono } from 'hono';
import type { PlatformContext } from '../src/platform/core/context';
import {
  type AppOptions,
  appFrame,
  type MountRoutes,
  openPlatformContext,
  type PlatformApp,
  type PlatformAppOptions,
  platformAppFrom,
  type RouteEntry,
  routeTable,
} from './app-frame';
import type { AppEnv } from './http';
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
import { forgetControlsAfterReset, sandboxFaultRoutes } from './routes/sandbox-faults';
import { cdnApp } from './routes/cdn';
import { AppWebhooks } from './webhooks';
import type { FetchLike } from '../src/platform/oauth2/oidc';

export { SERVED_BY, SERVED_BY_HEADER, routeTable } from './app-frame';
export type { AppOptions, PlatformApp, PlatformAppOptions, RouteEntry } from './app-frame';

/**
 * Mounts every route of the platform on `app`, the API's once under `/api`: the app routes
 * `/api/v10/...` as `/api/...` (see `withoutApiVersion`). `send` is how webhook tests and PINGs
 * reach their URL (the app's outbox transport).
 */
export const mountPlatformRoutes: MountRoutes = (app, send, gatewayUrl, rateLimits = false) => {
  app.use('/sandbox/reset', forgetControlsAfterReset(rateLimits));
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
};

let platformRoutes: ReturnType<typeof routeTable> | undefined;
const routeLists = new Map<boolean, RouteEntry[]>();

/** The routes alone, mounted on an app with no database; the gateway's discovery routes with `withGateway` (the server's). */
function routesOnlyApp(withGateway: boolean): Hono<AppEnv> {
  const routesOnly = new Hono<AppEnv>();
  const unused = () => Promise.reject(new Error('only the route table is read'));
  mountPlatformRoutes(routesOnly, unused, withGateway ? () => '' : undefined);
  return routesOnly;
}

/**
 * Every route of the platform (with the server's gateway discovery routes, unless `withGateway`
 * is false: the service worker's), by method and path as the app registers them
 * (`GET /api/lobbies/:lobby_id`): what tests, generated docs and the service worker's build walk.
 * @example platformRouteList().filter((r) => r.method === 'GET')
 */
export function platformRouteList(withGateway = true): RouteEntry[] {
  let list = routeLists.get(withGateway);
  if (!list) {
    list = routesOnlyApp(withGateway)
      .routes.filter((r) => r.method !== 'ALL')
      .map(({ method, path }) => ({ method, path }));
    routeLists.set(withGateway, list);
  }
  return list.map((r) => ({ ...r }));
}

/**
 * Whether the platform has a route for `path` (without `/.proxy`), whatever the method: the
 * service worker asks before it takes an unversioned `/api/...` path from the activity's own
 * server. Built once from the routes alone, no database needed.
 * @example platformHasRoute('/api/users/@me') // true; platformHasRoute('/api/token') // false
 */
export function platformHasRoute(path: string): boolean {
  platformRoutes ??= routeTable({ routes: platformRouteList(false) });
  return platformRoutes.methodsFor(path).length > 0;
}

/**
 * Builds the hono app over a context, with every route.
 * @example const app = buildApp(ctx); await app.fetch(new Request('http://x/api/v10/lobbies/1'));
 */
export function buildApp(
  ctx: PlatformContext,
  webhooks: AppWebhooks = new AppWebhooks(ctx),
  options: AppOptions = {},
): Hono<AppEnv> {
  const app = appFrame(ctx, webhooks, options)(mountPlatformRoutes);
  webhooks.serve(async (request) => app.fetch(request, { internal: true }), options.basePath ?? '');
  return app;
}

/**
 * Opens the platform (database, clock, ids) and returns its HTTP app.
 * @example const app = await createPlatformApp({ broadcast: (m) => channel.postMessage(m) });
 */
export async function createPlatformApp(options: PlatformAppOptions = {}): Promise<PlatformApp> {
  const ctx = await openPlatformContext(options);
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
  return platformAppFrom(ctx, webhooks, options, { appFor: () => app, cdn: () => cdn });
}

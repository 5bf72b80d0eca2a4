/**
 * The service worker's app: it starts with the frame (`./app-frame`) and the lobbies' routes,
 * the code every start needs to read a lobby's messages, and loads the platform's other routes
 * (`./app`) on the first request one of them answers. Built, those routes are a script of their
 * own beside `sw.js` (`scripts/vite/service-worker-plugin.ts`), precached, and run from the
 * precache on first use: not one of the worker's installed scripts, which the browser would hand
 * to every start of the worker, used or not.
 */
import type { Hono } from 'hono';
import type { PlatformContext } from '../src/platform/core/context';
import {
  appFrame,
  openPlatformContext,
  type PlatformApp,
  type PlatformAppOptions,
  platformAppFrom,
  routeTable,
} from './app-frame';
import type { AppEnv } from './http';
import type { MountRoutes } from './app-frame';
import { stripProxyPrefix } from './paths';
import { lobbyRoutes } from './routes/lobbies';
import { AppWebhooks } from './webhooks';

/** What the script of the platform's routes gives once loaded. */
export interface LoadedRoutes {
  /** Mounts every route of the platform (`./app`). */
  mountPlatformRoutes: MountRoutes;
  /** The CDN origin's app (`./routes/cdn`). */
  cdnApp(ctx: PlatformContext, attachments: (request: Request) => Promise<Response>): Hono;
}

/** The platform's routes as the worker reaches them without loading them. */
export interface RouteScript {
  /** Whether the platform has a route for `path` (without `/.proxy`), whatever the method. */
  hasRoute(path: string): boolean;
  /** The routes, loaded on the first call (a script run once per start of the worker). */
  load(): Promise<LoadedRoutes>;
}

/**
 * The routes every start of the worker carries: a lobby's reads and writes. Mounted where the
 * whole app mounts them (`/api` + `/lobbies`), so a path they answer is answered as the whole
 * app answers it (`test/unit/sw/lazy-app.test.ts` holds that no other route comes first).
 */
export const mountStartRoutes: MountRoutes = (app) => {
  app.route('/api/lobbies', lobbyRoutes());
};

/**
 * Opens the platform and returns its HTTP app, which answers with the start's routes until a
 * request needs another, and with every route from then on. Both apps share one frame: one
 * context, one edge (requests in flight, rate limits), one webhook outbox.
 * @example const app = await createLazyPlatformApp({ starts }, routeScript);
 */
export async function createLazyPlatformApp(options: PlatformAppOptions, script: RouteScript): Promise<PlatformApp> {
  const ctx = await openPlatformContext(options);
  const webhooks = new AppWebhooks(ctx, options.webhookFetch);
  const build = appFrame(ctx, webhooks, { starts: options.starts });
  const start = build(mountStartRoutes);
  const startRoutes = routeTable(start);
  let whole: Promise<Hono<AppEnv>> | undefined;
  let cdn: Promise<Hono> | undefined;
  // A script that failed to load is asked again by the next request that needs it.
  const retried = <T>(loading: Promise<T>, forget: () => void): Promise<T> => {
    loading.catch(forget);
    return loading;
  };
  const appFor = (request: Request): Hono<AppEnv> | Promise<Hono<AppEnv>> => {
    if (whole) return whole;
    if (startRoutes.allows(request.method, stripProxyPrefix(new URL(request.url).pathname))) return start;
    whole = retried(
      script.load().then((routes) => build(routes.mountPlatformRoutes)),
      () => (whole = undefined),
    );
    return whole;
  };
  webhooks.serve(async (request) => (await appFor(request)).fetch(request, { internal: true }));
  // The app routes by path alone: the CDN's `/attachments/...` answers as the page origin's does.
  const cdnOf = () =>
    (cdn ??= retried(
      script.load().then((routes) => routes.cdnApp(ctx, async (request) => (await appFor(request)).fetch(request))),
      () => (cdn = undefined),
    ));
  return platformAppFrom(ctx, webhooks, {}, { appFor, cdn: cdnOf });
}

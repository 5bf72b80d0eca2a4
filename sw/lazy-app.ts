/**
 * The service worker's app: it starts with the frame (`./app-frame`) and the lobbies' routes,
 * the code every start needs to read a lobby's messages, and loads the platform's other routes
 * (`./app`) on the first request one of them answers. Built, those routes are a script of their
 * own beside `sw.js` (`scripts/vite/service-worker-plugin.ts`), imported once while the worker
 * installs so that the browser keeps it with the worker's scripts, and precached.
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
  load(): LoadedRoutes;
  /** Called while the worker installs: the script is fetched then, and kept with the worker. */
  install(): void;
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
  let whole: Hono<AppEnv> | undefined;
  let cdn: Hono | undefined;
  const appFor = (request: Request): Hono<AppEnv> => {
    if (whole) return whole;
    if (startRoutes.allows(request.method, stripProxyPrefix(new URL(request.url).pathname))) return start;
    whole = build(script.load().mountPlatformRoutes);
    return whole;
  };
  webhooks.serve(async (request) => appFor(request).fetch(request, { internal: true }));
  // The app routes by path alone: the CDN's `/attachments/...` answers as the page origin's does.
  const cdnOf = () => (cdn ??= script.load().cdnApp(ctx, async (request) => appFor(request).fetch(request)));
  return platformAppFrom(ctx, webhooks, {}, { appFor, cdn: cdnOf });
}

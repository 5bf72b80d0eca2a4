/**
 * The platform's routes as the service worker reaches them under Vite's dev server (a module
 * worker, which imports them with the rest). The build replaces this module with one that knows
 * the routes' paths and imports their script on first use (`scripts/vite/service-worker-plugin.ts`).
 */
import { mountPlatformRoutes, platformHasRoute } from './app';
import type { RouteScript } from './lazy-app';
import { cdnApp } from './routes/cdn';

export const routeScript: RouteScript = {
  hasRoute: platformHasRoute,
  load: async () => ({ mountPlatformRoutes, cdnApp }),
};

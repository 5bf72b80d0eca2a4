/**
 * The built script of the platform's routes (`sw-routes-<hash>.js` beside `sw.js`): what
 * `RouteScript.load` returns. It runs in the worker after `sw.js`, whose modules it uses.
 */
export { mountPlatformRoutes } from './app';
export { cdnApp } from './routes/cdn';

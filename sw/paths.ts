/**
 * Which request paths the service worker answers, and how the activity proxy prefix is
 * folded away. CONTRACT §1: every path works with and without `/.proxy/`. The paths themselves
 * are the platform's (`src/wire/paths.ts`), shared with the activity proxy's URL mappings.
 */
import { API_PATH_PREFIXES, PLATFORM_DISCOVERY_PATH, PROXY_PREFIX, stripProxyPrefix } from '../src/wire/paths';

export { PROXY_PREFIX, stripProxyPrefix };

/** `/api/v<N>` and everything under it: the versioned API, whatever the version. */
const VERSIONED_API = /^\/api\/v\d+(?:\/|$)/;

/**
 * The versions the platform still serves (v10, and v9 that older libraries use): their routes are
 * the unversioned `/api` ones. Any other version is an unknown route.
 */
const SERVED_API = /^\/api\/v(?:9|10)(?=\/|$)/;

/**
 * The path as the app routes it: `/api/v10/...` and `/api/v9/...` are `/api/...`, so that every
 * API route is registered once and answers under every base (built once on each start of the worker).
 * @example withoutApiVersion('/api/v10/users/@me') // '/api/users/@me'
 * @example withoutApiVersion('/api/v9/users/@me') // '/api/users/@me'
 */
export function withoutApiVersion(path: string): string {
  const served = SERVED_API.exec(path);
  return served === null ? path : '/api' + path.slice(served[0].length);
}

/**
 * The path with the base path a server serves a sandbox under removed (`/s/team-a/api/v10` →
 * `/api/v10`); a path outside the base is left as it is.
 * @example stripBasePath('/s/team-a/api/v10/users/@me', '/s/team-a') // '/api/v10/users/@me'
 */
export function stripBasePath(pathname: string, basePath: string): string {
  if (basePath === '') return pathname;
  if (pathname === basePath) return '/';
  return pathname.startsWith(basePath + '/') ? pathname.slice(basePath.length) : pathname;
}

/**
 * True when the platform's HTTP app answers this URL (after folding `/.proxy`). The service
 * worker lets every other request through untouched.
 *
 * Everything under `/api/v<N>/` is the platform's (an unknown path there is its JSON 404).
 * Without a version, `/api/...` is the platform's only where `isRoute` says it has a route:
 * the rest is the activity's own (its `/api/token`, its dev server's `/api` proxy), as on the
 * real platform, where those paths reach the activity's server through its URL mapping.
 * @example ownsPath(new URL('http://x/.proxy/api/v10/lobbies')) // true
 * @example ownsPath(new URL('http://x/api/token'), (path) => routes.answers(path)) // false
 */
export function ownsPath(url: URL, isRoute: (path: string) => boolean = () => true): boolean {
  const path = stripProxyPrefix(url.pathname);
  if (path === '/api' || VERSIONED_API.test(path)) return true;
  if (path.startsWith('/api/')) return isRoute(path);
  // `/sandbox` answers on its own (an index, a 404 in the API's shape); the others only below them.
  return (
    path === '/sandbox' ||
    path === PLATFORM_DISCOVERY_PATH ||
    API_PATH_PREFIXES.some((prefix) => path.startsWith(`${prefix}/`))
  );
}

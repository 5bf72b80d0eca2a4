/**
 * Which request paths the service worker answers, and how the activity proxy prefix is
 * folded away. CONTRACT §1: every path works with and without `/.proxy/`.
 */

/** The activity proxy prefix; requests under it answer exactly as without it. */
export const PROXY_PREFIX = '/.proxy';

/** Path prefixes the platform owns. Everything else goes to the network (or the precache). */
const OWNED_PREFIXES = ['/sandbox/', '/oauth2/', '/attachments/'] as const;

/** `/api/v<N>` and everything under it: the versioned API, whatever the version. */
const VERSIONED_API = /^\/api\/v\d+(?:\/|$)/;

/**
 * The platform's OpenID Connect discovery document (`PLATFORM_DISCOVERY_PATH`), the one path it
 * owns outside those prefixes. Spelled out here: the Vite config loads this file, and must not
 * pull the platform's store code in with it.
 */
const DISCOVERY_PATH = '/.well-known/openid-configuration';

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
 * The path with the activity proxy prefix removed.
 * @example stripProxyPrefix('/.proxy/api/v10/users/@me') // '/api/v10/users/@me'
 */
export function stripProxyPrefix(pathname: string): string {
  if (pathname === PROXY_PREFIX) return '/';
  return pathname.startsWith(PROXY_PREFIX + '/') ? pathname.slice(PROXY_PREFIX.length) : pathname;
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
  return path === '/sandbox' || path === DISCOVERY_PATH || OWNED_PREFIXES.some((p) => path.startsWith(p));
}

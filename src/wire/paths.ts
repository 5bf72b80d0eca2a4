/**
 * The platform's own paths on its origin, defined once for everything that must know them: the
 * service worker (which requests it answers), the activity proxy's URL mappings (which prefixes
 * an application may not take, checked when the developer sets them and again in the activity's
 * page) and the OpenID Connect routes. CONTRACT §1: every path works with and without `/.proxy/`.
 *
 * A leaf of the tree (it imports nothing): the Vite config (`scripts/vite/site-pages.ts`), the
 * activity SDK, the service worker and the platform all load it, and none of them may pull the
 * others' code in with it.
 */

/**
 * One URL mapping of the activity proxy: requests to `target` (a host with an optional port and
 * path) go to `prefix` on the activity's own origin. Set by the developer, read by the activity SDK.
 */
export interface UrlMapping {
  prefix: string;
  target: string;
}

/** The activity proxy prefix; requests under it answer exactly as without it. */
export const PROXY_PREFIX = '/.proxy';

/** The first path segments the service worker's HTTP app answers (the API, the sandbox, OAuth2, uploads). */
export const API_PATH_PREFIXES = ['/api', '/sandbox', '/oauth2', '/attachments'] as const;

/** Where an activity's pages are served: `/activities/<application_id>/`. */
export const ACTIVITIES_PATH = '/activities';

/** Every first path segment the platform serves itself: no URL mapping prefix may start with one. */
export const PLATFORM_PATH_PREFIXES = [...API_PATH_PREFIXES, ACTIVITIES_PATH] as const;

/** The platform's OpenID Connect discovery document: the one path it owns outside those prefixes. */
export const PLATFORM_DISCOVERY_PATH = '/.well-known/openid-configuration';

/**
 * Where the server serves the platform's CDN (`https://cdn.discordapp.com/...` in the browser):
 * `<server>/cdn/embed/avatars/0.png`. A page that joined a server has its CDN requests sent there.
 */
export const SERVER_CDN_PATH = '/cdn';

/**
 * The path with the activity proxy prefix removed.
 * @example stripProxyPrefix('/.proxy/api/v10/users/@me') // '/api/v10/users/@me'
 */
export function stripProxyPrefix(pathname: string): string {
  if (pathname === PROXY_PREFIX) return '/';
  return pathname.startsWith(`${PROXY_PREFIX}/`) ? pathname.slice(PROXY_PREFIX.length) : pathname;
}

/**
 * The platform path `prefix` collides with (`/api` for `/api/v2` or `/.proxy/api`), or null.
 * @example platformPathCollision('/.proxy/api/x') // '/api'
 */
export function platformPathCollision(prefix: string): string | null {
  const path = stripProxyPrefix(`/${prefix.replace(/^\/+/, '')}`);
  return PLATFORM_PATH_PREFIXES.find((p) => path === p || path.startsWith(`${p}/`)) ?? null;
}

/**
 * The header a deployed server's control routes want its secret in (`sw/control-door.ts`): the
 * sandbox control API and the consent decision. Programs that call them send it; the Vite
 * plugin's relay adds it for the pages it serves, which never hold the secret.
 */
export const CONTROL_SECRET_HEADER = 'X-Sandbox-Secret';

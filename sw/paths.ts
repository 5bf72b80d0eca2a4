/**
 * Which request paths the service worker answers, and how the activity proxy prefix is
 * folded away. CONTRACT §1: every path works with and without `/.proxy/`.
 */

/** The activity proxy prefix; requests under it answer exactly as without it. */
export const PROXY_PREFIX = '/.proxy';

/** Path prefixes the platform owns. Everything else goes to the network (or the precache). */
const OWNED_PREFIXES = ['/api/', '/sandbox/', '/oauth2/', '/attachments/'] as const;

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
 * @example ownsPath(new URL('http://x/.proxy/api/v10/lobbies')) // true
 */
export function ownsPath(url: URL): boolean {
  const path = stripProxyPrefix(url.pathname);
  return (
    path === '/api' || path === '/sandbox' || path === DISCOVERY_PATH || OWNED_PREFIXES.some((p) => path.startsWith(p))
  );
}

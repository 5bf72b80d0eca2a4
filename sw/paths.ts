/**
 * Which request paths the service worker answers, and how the activity proxy prefix is
 * folded away. CONTRACT §1: every path works with and without `/.proxy/`. The paths themselves
 * are the platform's (`src/wire/paths.ts`), shared with the activity proxy's URL mappings.
 */
import { API_PATH_PREFIXES, PLATFORM_DISCOVERY_PATH, PROXY_PREFIX, stripProxyPrefix } from '../src/wire/paths';

export { PROXY_PREFIX, stripProxyPrefix };

/**
 * True when the platform's HTTP app answers this URL (after folding `/.proxy`). The service
 * worker lets every other request through untouched.
 * @example ownsPath(new URL('http://x/.proxy/api/v10/lobbies')) // true
 */
export function ownsPath(url: URL): boolean {
  const path = stripProxyPrefix(url.pathname);
  // `/api` and `/sandbox` answer on their own (an index, a 404 in the API's shape); the others only below them.
  return (
    path === '/api' ||
    path === '/sandbox' ||
    path === PLATFORM_DISCOVERY_PATH ||
    API_PATH_PREFIXES.some((prefix) => path.startsWith(`${prefix}/`))
  );
}

/**
 * The method and path patterns of HTTP faults. A pattern is a request path with `*` for any one
 * segment (`/api/v10/channels/*\/messages`), or a route as the app registers it
 * (`/api/channels/:channel_id/messages`); the API's version is optional and ignored, as the app
 * serves every version alike. A pattern must match a route of the platform, so that a typo is
 * refused when the fault is injected, not found out when nothing fails.
 */

/** The methods an HTTP fault may name; `*` is any. */
export const FAULT_METHODS = ['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** `/api/v<N>/...` as `/api/...`: the version does not choose a route. */
const API_VERSION = /^\/api\/v\d+(?=\/|$)/;

/** A path split into its segments, without the API's version and a trailing slash. */
export function pathSegments(path: string): string[] {
  return path.replace(API_VERSION, '/api').split('/').filter(Boolean);
}

/** Whether a pattern segment stands for any value (`*`, or a route's `:param`). */
const isWildcard = (segment: string) => segment === '*' || segment.startsWith(':');

/**
 * Whether a request path (already without the base path and `/.proxy`) matches a pattern.
 * @example pathMatches(pathSegments('/api/v10/channels/*\/messages'), '/api/v10/channels/1/messages') // true
 */
export function pathMatches(pattern: readonly string[], path: string): boolean {
  const segments = pathSegments(path);
  if (segments.length !== pattern.length) return false;
  return pattern.every((p, i) => isWildcard(p) || p === segments[i]);
}

/**
 * Whether a pattern can match a route: each literal segment of one meets a parameter of the
 * other or the same literal.
 */
function patternMeetsRoute(pattern: readonly string[], route: readonly string[]): boolean {
  if (pattern.length !== route.length) return false;
  return pattern.every((p, i) => isWildcard(p) || isWildcard(route[i]) || p === route[i]);
}

/**
 * Whether `method` and `pattern` match at least one of `routes` (as the app lists them:
 * `{method: 'POST', path: '/api/channels/:channel_id/messages'}`).
 * @example patternMatchesARoute('POST', '/api/v10/channels/*\/messages', platformRouteList()) // true
 */
export function patternMatchesARoute(
  method: string,
  pattern: string,
  routes: readonly { method: string; path: string }[],
): boolean {
  const segments = pathSegments(pattern);
  return routes.some(
    (route) => (method === '*' || route.method === method) && patternMeetsRoute(segments, pathSegments(route.path)),
  );
}

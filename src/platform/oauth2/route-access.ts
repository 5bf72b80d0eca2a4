/**
 * Who may call each route: the kinds of token it takes (none, `Bot`, `Bearer`) and, for a user's
 * OAuth2 token, the scopes it needs. The table itself is `route-access-table.ts`; the app checks
 * every request against it before the route runs (`sw/access.ts`), the docs' table is generated
 * from it (`docs/scopes.md`), and a test probes every route with it. A route's own code checks
 * only what depends on the resource (membership, permissions, ownership).
 */
import type { PlatformContext } from '../core/context';
import { inForce, RULE_DATES } from '../core/dates';
import { ApiError, type ApiErrorName } from '../core/errors';
import { authenticate, type Principal } from './auth';
import type { Scope } from './scopes';

/**
 * How a route that takes no `Bot` or `Bearer` token knows its caller:
 * - `public`: anyone may call it (discovery documents, key sets, CDN files);
 * - `client`: the application authenticates itself in the request (OAuth2 client credentials,
 *   `client_id` in the body), as RFC 6749 has it;
 * - `interaction token`: the token in the path is the credential (interaction callbacks);
 * - `webhook token`: the token in the path is the credential: an incoming webhook's, or on the
 *   paths the two share, an interaction's (follow-ups and their messages);
 * - `parent token`: the parent application's access token in the body (publisher linking);
 * - `sandbox`: the sandbox control API (CONTRACT §3), open to any page of the origin.
 */
export type OpenAccess = 'public' | 'client' | 'interaction token' | 'webhook token' | 'parent token' | 'sandbox';

/** Who may call one route. */
export interface RouteAccess {
  /** Whether an application's bot token (`Authorization: Bot …`) is accepted. */
  readonly bot: boolean;
  /**
   * Whether a user's OAuth2 token (`Authorization: Bearer …`) is accepted: false, or the scopes
   * of which the token needs at least one (empty: any token of an application the user authorized).
   */
  readonly bearer: false | readonly Scope[];
  /**
   * Set when `bearer` names one scope per kind of resource and the route checks which applies
   * (with `requireScopeOfResource`): the words that say which kind needs which scope.
   */
  readonly scopeByResource?: string;
  /** Set on routes that take neither token: how they know their caller instead. */
  readonly open?: OpenAccess;
  /** A dated rule from which no application may call the route any more, and the error it answers then. */
  readonly removed?: { readonly from: keyof typeof RULE_DATES; readonly error: ApiErrorName };
}

/** A route as the table names it: its method and its path below `{base_url}` (`GET /lobbies/:lobby_id`). */
export type RouteKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

/** Bots only. */
export const BOT: RouteAccess = { bot: true, bearer: false };

/**
 * A user's OAuth2 token with one of `scopes` (any token when none is named).
 * @example user('relationships.read')
 */
export const user = (...scopes: Scope[]): RouteAccess => ({ bot: false, bearer: scopes });

/**
 * A bot, or a user's OAuth2 token with one of `scopes` (any token when none is named).
 * @example botOrUser('guilds')
 */
export const botOrUser = (...scopes: Scope[]): RouteAccess => ({ bot: true, bearer: scopes });

/**
 * No Bot or Bearer token: the caller is known as `how` says.
 * @example open('client')
 */
export const open = (how: OpenAccess): RouteAccess => ({ bot: false, bearer: false, open: how });

/**
 * The route key of a path the app registered (`/api/v10/lobbies/:lobby_id`): the API's prefix
 * (`/api/v10` or `/api`) is dropped, so the same route under both bases is one entry. Other paths
 * (`/sandbox/...`, `/attachments/...`, `/oauth2/...`) are kept as they are.
 * @example routeKeyOf('GET', '/api/v10/lobbies/:lobby_id') // 'GET /lobbies/:lobby_id'
 */
export function routeKeyOf(method: string, path: string): RouteKey {
  const below = path.replace(/^\/api(?:\/v\d+)?(?=\/)/, '');
  return `${method === 'HEAD' ? 'GET' : method} ${below}` as RouteKey;
}

/**
 * Lets the caller in, or throws: 401 for a missing, malformed or unknown token; the route's own
 * error once it is removed for applications; 403 / 20002 for a user's token on a bot-only route and
 * 403 / 20001 for a bot on a user-only route; 403 / 50001 for a user's token without any of the
 * route's scopes. Returns the caller, or null for an open route (whose credential the route
 * checks itself).
 * @example const principal = await admit(ctx, ROUTE_ACCESS['GET /users/@me'], request.headers.get('Authorization'));
 */
export async function admit(
  ctx: PlatformContext,
  access: RouteAccess,
  authorization: string | null | undefined,
): Promise<Principal | null> {
  if (access.open) return null;
  const principal = await authenticate(ctx, authorization);
  // Availability first: once a route is removed, no application request is served, whoever calls.
  if (access.removed && inForce(RULE_DATES[access.removed.from], ctx.clock.now()))
    throw ApiError.of(access.removed.error);
  if (principal.kind === 'bot') {
    if (!access.bot) throw ApiError.of('BOTS_CANNOT_USE_ENDPOINT');
    return principal;
  }
  if (access.bearer === false) throw ApiError.of('ONLY_BOTS_CAN_USE_ENDPOINT');
  if (access.bearer.length > 0 && !access.bearer.some((scope) => principal.scopes.has(scope))) {
    throw ApiError.of('MISSING_ACCESS', `Missing OAuth2 scope: ${missingScopeText(access.bearer)}`);
  }
  return principal;
}

/**
 * For a route whose table entry names one scope per kind of resource (a channel that is a guild's
 * or a DM): throws 403 (50001) unless a user's token holds the scope of the resource at hand.
 * The table already admitted the token with one of the kinds' scopes; bots pass.
 * @example requireScopeOfResource(principal, 'dm_channels.messages.write');
 */
export function requireScopeOfResource(principal: Principal, scope: Scope): void {
  if (principal.kind === 'bearer' && !principal.scopes.has(scope)) {
    throw ApiError.of('MISSING_ACCESS', `Missing OAuth2 scope: ${scope}`);
  }
}

/** The scope a refusal names: the one scope, or "one of a, b". */
function missingScopeText(scopes: readonly Scope[]): string {
  return scopes.length === 1 ? scopes[0] : `one of ${scopes.join(', ')}`;
}

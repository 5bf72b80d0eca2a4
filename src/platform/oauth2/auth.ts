/**
 * Who is calling: a bot (by its bot token) or a user through an application (by an OAuth2
 * access token). CONTRACT §2: a missing or unknown token is `401 {"message": "401: Unauthorized", "code": 0}`.
 */
import type { TokenRecord } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { scopesFor } from './consent-scopes';
import { hashSecret } from '../core/secrets';
import { type Dependency, ENTRY_OVERHEAD_BYTES, type ReadCache, stringBytes, userEntryKey } from '../core/read-cache';
import type { BearerPrincipal, BotPrincipal, Principal } from './principal';

export type { BearerPrincipal, BotPrincipal, Principal } from './principal';

/**
 * Splits an Authorization header value (or a gateway Identify token) into its kind and
 * secret. A bare token is a bot token, as the platform's bot libraries send it.
 */
export function parseCredential(value: string | null | undefined): { kind: 'bot' | 'bearer'; secret: string } | null {
  if (!value) return null;
  const match = /^(Bot|Bearer)\s+(\S+)$/i.exec(value.trim());
  if (match) return { kind: match[1].toLowerCase() === 'bot' ? 'bot' : 'bearer', secret: match[2] };
  return /^\S+$/.test(value.trim()) ? { kind: 'bot', secret: value.trim() } : null;
}

/**
 * Resolves an Authorization header to the caller, or throws 401. Where the read cache is on
 * (the service worker), a caller seen since the last write is answered from memory.
 * @example const who = await authenticate(ctx, request.headers.get('Authorization'));
 */
export async function authenticate(
  ctx: PlatformContext,
  authorization: string | null | undefined,
  allowBare = false,
): Promise<Principal> {
  const credential = parseCredential(authorization);
  const explicit = authorization ? /^(Bot|Bearer)\s/i.test(authorization.trim()) : false;
  if (!credential || (!explicit && !allowBare)) throw ApiError.of('UNAUTHORIZED');
  const cache = ctx.cache;
  const key = `principal:${credential.kind} ${credential.secret}`;
  const cached = cache?.get<Principal>(key);
  if (cached) {
    if (cached.kind === 'bearer' && isExpired(ctx, cached.token)) throw ApiError.of('UNAUTHORIZED');
    // A copy, so that no request changes another's.
    return structuredClone(cached);
  }
  // Hash before the transaction opens: awaiting anything but its requests would end it.
  const hash = await hashSecret(credential.secret);
  const generation = cache?.generation ?? 0;
  const principal = await loadPrincipal(ctx, credential.kind, hash);
  if (cache) keepPrincipal(cache, key, generation, principal);
  return principal;
}

/**
 * Keeps the caller under its credential, dropped by any change to its token, application, user
 * or ban; and its user's record on its own, for cached reads that follow what the user writes.
 */
function keepPrincipal(cache: ReadCache, key: string, generation: number, principal: Principal): void {
  const userId = principal.user.id;
  const dependencies: Dependency[] = [
    { store: 'applications', key: principal.application.id },
    { store: 'users', key: userId },
    { store: 'bans', key: userId },
  ];
  if (principal.kind === 'bearer') dependencies.push({ store: 'tokens', key: principal.token.hash });
  const bytes = ENTRY_OVERHEAD_BYTES + stringBytes(JSON.stringify(principal));
  cache.keep(key, generation, { value: structuredClone(principal), bytes, dependencies });
  cache.keep(userEntryKey(userId), generation, {
    value: structuredClone(principal.user),
    bytes: ENTRY_OVERHEAD_BYTES + stringBytes(JSON.stringify(principal.user)),
    dependencies: [{ store: 'users', key: userId }],
  });
}

function isExpired(ctx: PlatformContext, token: TokenRecord): boolean {
  return token.expires_at !== null && token.expires_at <= ctx.clock.now();
}

/** The caller whose secret hashes to `hash`, read in one transaction; throws 401. */
async function loadPrincipal(ctx: PlatformContext, kind: 'bot' | 'bearer', hash: string): Promise<Principal> {
  const tx = ctx.db.read(['tokens', 'applications', 'users', 'bans']);
  if (kind === 'bot') {
    const application = await tx.store('applications').index('by_bot_token').get(hash);
    const user = application && (await tx.store('users').get(application.bot_user_id));
    if (!application || !user) throw ApiError.of('UNAUTHORIZED');
    return { kind: 'bot', application, user };
  }
  const token = await tx.store('tokens').get(hash);
  if (!token || token.kind !== 'access' || isExpired(ctx, token)) throw ApiError.of('UNAUTHORIZED');
  const [application, user] = await Promise.all([
    tx.store('applications').get(token.application_id),
    tx.store('users').get(token.user_id),
  ]);
  // A ban deletes the user's tokens; one that somehow outlived it still authenticates nothing.
  if (!application || !user || (await tx.store('bans').get(token.user_id))) throw ApiError.of('UNAUTHORIZED');
  return { kind: 'bearer', application, user, scopes: scopesFor(application, token.scopes), token };
}

/** Throws 403 (20002) unless the caller is a bot. */
export function requireBot(principal: Principal): asserts principal is BotPrincipal {
  if (principal.kind !== 'bot') throw ApiError.of('ONLY_BOTS_CAN_USE_ENDPOINT');
}

/** Throws 403 (20001) unless the caller is a user with an OAuth2 token. */
export function requireBearer(principal: Principal): asserts principal is BearerPrincipal {
  if (principal.kind !== 'bearer') throw ApiError.of('BOTS_CANNOT_USE_ENDPOINT');
}

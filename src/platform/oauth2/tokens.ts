/**
 * OAuth2 token pairs: issued by the token endpoint and the sandbox, stored only as hashes,
 * rotated on refresh and deleted on revoke or ban. A write that deletes tokens also records
 * {@link SESSIONS_INVALIDATED} in the event log, so the gateway ends the sessions that were
 * identified with them (the service worker deletes, the shared worker holds the sessions).
 */
import type { TokenRecord } from '../../store/schema';
import type { Emit, WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { OAUTH2_ACCESS_TOKEN_TTL_S } from '../core/limits';
import { generateSecret, hashSecret } from '../core/secrets';

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  /** With `openid` granted, the authorization-code grant's OpenID Connect ID token (`oidc-provider.ts`). */
  id_token?: string;
}

/** A freshly generated pair, with the records to store. Generate before opening the write. */
export interface PreparedTokenPair {
  response: TokenResponse;
  records: [TokenRecord, TokenRecord];
}

/**
 * Generates an access/refresh pair for `user_id` through `application_id`. Hashing is async,
 * so this runs before the write transaction; {@link storeTokenPair} then stores it inside one.
 */
export async function prepareTokenPair(
  ctx: PlatformContext,
  grant: { application_id: string; user_id: string; scopes: string[] },
): Promise<PreparedTokenPair> {
  const access = generateSecret(30);
  const refresh = generateSecret(30);
  const [accessHash, refreshHash] = await Promise.all([hashSecret(access), hashSecret(refresh)]);
  const now = ctx.clock.now();
  const base = { application_id: grant.application_id, user_id: grant.user_id, scopes: grant.scopes, created_at: now };
  return {
    response: {
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: OAUTH2_ACCESS_TOKEN_TTL_S,
      scope: grant.scopes.join(' '),
    },
    records: [
      {
        ...base,
        hash: accessHash,
        kind: 'access',
        expires_at: now + OAUTH2_ACCESS_TOKEN_TTL_S * 1000,
        pair_hash: refreshHash,
      },
      { ...base, hash: refreshHash, kind: 'refresh', expires_at: null, pair_hash: accessHash },
    ],
  };
}

/** Stores a prepared pair inside a write transaction that includes `tokens`. */
export async function storeTokenPair(tx: WriteTx, pair: PreparedTokenPair): Promise<void> {
  const store = tx.store('tokens');
  await Promise.all(pair.records.map((r) => store.put(r)));
}

/**
 * The event-log entry that says some of a user's credentials were deleted. It travels on the
 * gateway's channel but is never dispatched: the gateway closes, with 4004, each live session
 * of the user whose own token is gone, and such a session cannot be resumed.
 */
export const SESSIONS_INVALIDATED = 'SESSIONS_INVALIDATED';

/** The data of a {@link SESSIONS_INVALIDATED} entry. */
export interface SessionsInvalidatedData {
  user_id: string;
}

/**
 * Records, inside the write that deleted tokens of `userIds`, that their gateway sessions must
 * be checked. Only user ids are logged, never a token or its hash: the gateway asks the store
 * whether each session's own token still exists.
 * @example invalidateSessions(emit, [token.user_id]);
 */
export function invalidateSessions(emit: Emit, userIds: Iterable<string>): void {
  for (const user_id of new Set(userIds)) {
    emit({
      type: SESSIONS_INVALIDATED,
      data: { user_id } satisfies SessionsInvalidatedData,
      audience: {},
      channels: ['gateway'],
    });
  }
}

/** Deletes a token and its pair inside a write transaction that includes `tokens`. */
export async function deleteTokenPair(tx: WriteTx, emit: Emit, token: TokenRecord): Promise<void> {
  const store = tx.store('tokens');
  await store.delete(token.hash);
  if (token.pair_hash) await store.delete(token.pair_hash);
  invalidateSessions(emit, [token.user_id]);
}

/** Deletes every token of a user (all applications) inside a write that includes `tokens`. */
export async function deleteUserTokens(tx: WriteTx, emit: Emit, userId: string): Promise<number> {
  const store = tx.store('tokens');
  const keys = await store.index('by_user').getAllKeys(userId);
  await Promise.all(keys.map((k) => store.delete(k)));
  if (keys.length > 0) invalidateSessions(emit, [userId]);
  return keys.length;
}

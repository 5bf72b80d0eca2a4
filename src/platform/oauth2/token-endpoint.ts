/**
 * The token endpoints' core (RFC 6749 §4-6, RFC 7636, RFC 7009): redeeming authorization codes
 * (with PKCE), rotating refresh tokens, client-credentials tokens for the application's owner,
 * revocation, and the current authorization (`/oauth2/@me`). Every refusal is an
 * `OAuth2Error`; no description ever carries a token, code or secret.
 */
import type { TokenRecord } from '../../store/schema';
import { write } from '../../store/write';
import { deleteChildTokens } from '../accounts/child-tokens';
import type { BearerPrincipal } from './auth';
import { banHolds } from '../accounts/ban-checks';
import type { PlatformContext } from '../core/context';
import { OAuth2Error } from '../core/errors';
import { OAUTH2_ACCESS_TOKEN_TTL_S } from '../core/limits';
import { mintPlatformIdToken } from './oidc-provider';
import { serializeApplication } from '../accounts/applications';
import { constantTimeEqual, requireConfidential, type OAuth2Client } from './client-auth';
import { scopeRefusal } from './consent-scopes';
import { parseScopes } from './scopes';
import { generateSecret, hashSecret, pkceChallenge } from '../core/secrets';
import { deleteTokenPair, prepareTokenPair, storeTokenPair, type TokenResponse } from './tokens';
import { serializeUser } from '../accounts/users';

/** RFC 7636 §4.1: a code verifier is 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

const invalidCode = () => new OAuth2Error('invalid_grant', 'Invalid "code" in request.');
const invalidRefreshToken = () => new OAuth2Error('invalid_grant', 'Invalid "refresh_token" in request.');

/**
 * `grant_type=authorization_code`: redeems a single-use code for an access/refresh pair with
 * the code's scopes. A code that is unknown, used, expired or another client's, a redirect URI
 * other than the one authorized, or a code verifier that does not match the challenge is
 * `invalid_grant`, and so is any code of a user while a ban holds. A public client (no secret)
 * may redeem only a code bound to a challenge. With `openid` granted and the `issuer` the
 * platform is served from, the answer also carries an ID token (`oidc-provider.ts`).
 * @example const tokens = await redeemAuthorizationCode(ctx, client, { code, code_verifier, redirect_uri });
 */
export async function redeemAuthorizationCode(
  ctx: PlatformContext,
  client: OAuth2Client,
  params: { code: string; redirect_uri?: string; code_verifier?: string },
  options: { issuer?: string } = {},
): Promise<TokenResponse> {
  const codeHash = await hashSecret(params.code);
  const verified =
    params.code_verifier !== undefined && CODE_VERIFIER.test(params.code_verifier)
      ? await pkceChallenge(params.code_verifier)
      : null;
  const code = await ctx.db.get('auth_codes', codeHash);
  if (!code || code.application_id !== client.application.id || code.expires_at <= ctx.clock.now()) throw invalidCode();
  if (!client.confidential && !code.code_challenge)
    requireConfidential(client, 'A code issued without a code_challenge');
  if ((params.redirect_uri ?? null) !== code.redirect_uri)
    throw new OAuth2Error('invalid_grant', 'Invalid "redirect_uri" in request.');
  if (code.code_challenge) {
    if (params.code_verifier === undefined)
      throw new OAuth2Error('invalid_request', 'Missing "code_verifier" in request.');
    const expected =
      code.code_challenge_method === 'S256'
        ? verified
        : CODE_VERIFIER.test(params.code_verifier)
          ? params.code_verifier
          : null;
    if (expected === null || !constantTimeEqual(expected, code.code_challenge))
      throw new OAuth2Error('invalid_grant', 'Invalid "code_verifier" in request.');
  } else if (params.code_verifier !== undefined) {
    // RFC 7636 downgrade protection: a verifier for a code that was issued without a challenge.
    throw new OAuth2Error(
      'invalid_grant',
      'Invalid "code_verifier" in request: the code was issued without a code_challenge.',
    );
  }
  const pair = await prepareTokenPair(ctx, {
    application_id: code.application_id,
    user_id: code.user_id,
    scopes: code.scopes,
  });
  if (!client.confidential) for (const record of pair.records) record.public_client = true;
  // Signed before the write (WebCrypto cannot be awaited inside it); dropped if the write refuses.
  const idToken =
    options.issuer !== undefined && code.scopes.includes('openid')
      ? await mintPlatformIdToken(ctx, {
          issuer: options.issuer,
          userId: code.user_id,
          clientId: code.application_id,
          nonce: code.nonce ?? null,
        })
      : null;
  await write(ctx, ['auth_codes', 'tokens', 'users', 'bans'], async (tx) => {
    // Read again inside the write: of two concurrent redemptions only one finds the code.
    if (!(await tx.store('auth_codes').get(codeHash))) throw invalidCode();
    const user = await tx.store('users').get(code.user_id);
    // Like the platform, the answer does not say why: a banned user's code is just invalid.
    if (!user || (await banHolds(tx.store('bans'), user.id))) throw invalidCode();
    await tx.store('auth_codes').delete(codeHash);
    await storeTokenPair(tx, pair);
  });
  return idToken === null ? pair.response : { ...pair.response, id_token: idToken };
}

/**
 * `grant_type=refresh_token`: rotates the pair. The old access and refresh tokens are deleted
 * and a new pair is issued with the same scopes (or the narrower `scope` asked for). A refresh
 * token that is unknown, deleted (revoked, user banned), another client's, or a banned user's
 * is `invalid_grant`.
 */
export async function refreshAccessToken(
  ctx: PlatformContext,
  client: OAuth2Client,
  params: { refresh_token: string; scope?: string },
): Promise<TokenResponse> {
  const hash = await hashSecret(params.refresh_token);
  const token = await ctx.db.get('tokens', hash);
  if (!token || token.kind !== 'refresh' || token.application_id !== client.application.id) throw invalidRefreshToken();
  if (!client.confidential && !token.public_client) requireConfidential(client, 'This refresh token');
  let scopes = token.scopes;
  if (params.scope !== undefined) {
    const asked = parseScopes(params.scope);
    // RFC 6749 §6: the new scope may not include anything the user did not grant.
    if (asked.unknown.length > 0 || asked.scopes.length === 0 || asked.scopes.some((s) => !token.scopes.includes(s))) {
      throw new OAuth2Error(
        'invalid_scope',
        'The requested scope is invalid or exceeds the scope granted by the resource owner.',
      );
    }
    scopes = asked.scopes;
  }
  const pair = await prepareTokenPair(ctx, { application_id: token.application_id, user_id: token.user_id, scopes });
  if (token.public_client) for (const record of pair.records) record.public_client = true;
  await write(ctx, ['tokens', 'users', 'bans'], async (tx, emit) => {
    const current = await tx.store('tokens').get(hash);
    if (
      !current ||
      !(await tx.store('users').get(current.user_id)) ||
      (await banHolds(tx.store('bans'), current.user_id))
    )
      throw invalidRefreshToken();
    await deleteTokenPair(tx, emit, current);
    await storeTokenPair(tx, pair);
  });
  return pair.response;
}

/** The client-credentials answer: an access token only (RFC 6749 §4.4.3: no refresh token). */
export type ClientCredentialsResponse = Omit<TokenResponse, 'refresh_token'>;

/**
 * `grant_type=client_credentials`: a Bearer token for the application's owner with the
 * requested scopes, for a confidential client only. It carries no refresh token: the client
 * asks again with its secret. None is issued while the owner is banned.
 */
export async function issueClientCredentials(
  ctx: PlatformContext,
  client: OAuth2Client,
  params: { scope: string },
): Promise<ClientCredentialsResponse> {
  requireConfidential(client, 'The client_credentials grant');
  const { scopes, unknown } = parseScopes(params.scope);
  if (unknown.length > 0 || scopes.length === 0)
    throw new OAuth2Error('invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
  const refusal = scopes.map((s) => scopeRefusal(client.application, s)).find((r) => r !== null);
  if (refusal) throw new OAuth2Error('invalid_scope', refusal);
  const ownerId = client.application.owner_id;
  if (ownerId === null)
    throw new OAuth2Error('unauthorized_client', 'The application has no owner to issue a token for.');
  const access = generateSecret(30);
  const now = ctx.clock.now();
  const record: TokenRecord = {
    hash: await hashSecret(access),
    kind: 'access',
    application_id: client.application.id,
    user_id: ownerId,
    scopes,
    expires_at: now + OAUTH2_ACCESS_TOKEN_TTL_S * 1000,
    pair_hash: null,
    created_at: now,
  };
  await write(ctx, ['tokens', 'users', 'bans'], async (tx) => {
    const owner = await tx.store('users').get(ownerId);
    if (!owner || owner.bot)
      throw new OAuth2Error('unauthorized_client', 'The application has no owner to issue a token for.');
    if (await banHolds(tx.store('bans'), ownerId))
      throw new OAuth2Error('unauthorized_client', "The application's owner is banned: no token is issued for them.");
    await tx.store('tokens').add(record);
  });
  return { access_token: access, token_type: 'Bearer', expires_in: OAUTH2_ACCESS_TOKEN_TTL_S, scope: scopes.join(' ') };
}

/**
 * RFC 7009: revokes an access or refresh token and the other half of its pair. A token that is
 * unknown, already revoked or another client's is left alone and the answer is the same, so the
 * endpoint tells a caller nothing about tokens it does not hold (§2.2).
 */
export async function revokeToken(ctx: PlatformContext, client: OAuth2Client, tokenValue: string): Promise<void> {
  const hash = await hashSecret(tokenValue);
  const token = await ctx.db.get('tokens', hash);
  if (!token || token.application_id !== client.application.id) return;
  if (!client.confidential && !token.public_client) requireConfidential(client, 'Revoking this token');
  await write(ctx, ['tokens'], async (tx, emit) => {
    const current = await tx.store('tokens').get(hash);
    if (current) await deleteTokenPair(tx, emit, current);
    // A revoked publisher authorization takes its games' child tokens with it.
    if (current) await deleteChildTokens(tx, emit, current);
  });
}

/**
 * `GET /oauth2/@me`: the application (with `verifyKey`, its Ed25519 public key), the granted
 * scopes, when the access token expires, and the user when the grant includes `identify`.
 */
export function currentAuthorization(principal: BearerPrincipal, verifyKey: string) {
  const { token } = principal;
  return {
    application: serializeApplication(principal.application, verifyKey),
    scopes: token.scopes,
    expires: token.expires_at === null ? null : new Date(token.expires_at).toISOString(),
    ...(principal.scopes.has('identify') ? { user: serializeUser(principal.user, principal) } : {}),
  };
}

/**
 * The platform as an OpenID Connect provider (spec, Authorization argument record: Nonce is
 * "only useful for backend integrations that use ID tokens"). When a user grants `openid`,
 * the authorization-code grant also answers an `id_token`: a JWT signed RS256 with the
 * platform's key, carrying `iss` (the origin the platform is served from), `sub` (the user
 * id), `aud` (the client id), `iat`, `exp` and, when the authorize request sent one, `nonce`.
 * A backend verifies it with the discovery document (`/.well-known/openid-configuration`)
 * and the key set (`/api/oauth2/keys`), as the platform publishes them.
 *
 * The private key is a non-extractable WebCrypto key kept in the `meta` store, as the webhook
 * signing keys are kept in theirs: generated on first use, it can sign and nothing else, and
 * every worker that opens the database signs with the same key.
 */
import type { PlatformSigningKeyRecord } from '../../store/schema';
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { PLATFORM_ID_TOKEN_TTL_S } from '../core/limits';
import type { PublicJwk } from './oidc';
import { generateRs256SigningKey, signJwtWithKey } from './oidc-jwt';

/** Where the key set is served, under the platform's origin. */
export const PLATFORM_JWKS_PATH = '/api/oauth2/keys';

/**
 * The platform's signing key, made the first time it is needed. Two workers that race to make
 * it keep whichever was stored first.
 */
export async function ensurePlatformSigningKey(ctx: PlatformContext): Promise<PlatformSigningKeyRecord> {
  const existing = (await ctx.db.get('meta', 'oidc_signing_key')) as PlatformSigningKeyRecord | undefined;
  if (existing) return existing;
  // Key generation awaits WebCrypto: done before the write, whose transaction may await only IndexedDB.
  const { privateKey, publicJwk } = await generateRs256SigningKey(ctx.db.keysMustBeExtractable);
  const now = ctx.clock.now();
  const candidate: PlatformSigningKeyRecord = {
    kid: `platform-${now.toString(36)}`,
    alg: 'RS256',
    private_key: privateKey,
    public_jwk: publicJwk,
    created_at: now,
  };
  return write(ctx, ['meta'], async (tx) => {
    const raced = (await tx.store('meta').get('oidc_signing_key')) as PlatformSigningKeyRecord | undefined;
    if (raced) return raced;
    await tx.store('meta').put(candidate, 'oidc_signing_key');
    return candidate;
  });
}

/** The platform's key set (RFC 7517): its one public signing key. */
export async function platformKeySet(ctx: PlatformContext): Promise<{ keys: PublicJwk[] }> {
  const key = await ensurePlatformSigningKey(ctx);
  return { keys: [{ ...key.public_jwk, kid: key.kid, alg: key.alg, use: 'sig' }] };
}

/**
 * The platform's discovery document for the origin it is served from: the members a relying
 * party needs to verify an ID token, and the OAuth2 endpoints.
 * @example platformDiscoveryDocument('http://127.0.0.1:4173').jwks_uri // 'http://127.0.0.1:4173/api/oauth2/keys'
 */
export function platformDiscoveryDocument(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/api/oauth2/authorize`,
    token_endpoint: `${origin}/api/oauth2/token`,
    revocation_endpoint: `${origin}/api/oauth2/token/revoke`,
    jwks_uri: `${origin}${PLATFORM_JWKS_PATH}`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    scopes_supported: ['openid'],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'nonce'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256', 'plain'],
  };
}

/**
 * An ID token for `userId` issued to `clientId` now by the platform clock, with the nonce of
 * the authorize request when it had one.
 * @example const idToken = await mintPlatformIdToken(ctx, { issuer: origin, userId, clientId, nonce: null });
 */
export async function mintPlatformIdToken(
  ctx: PlatformContext,
  grant: { issuer: string; userId: string; clientId: string; nonce: string | null },
): Promise<string> {
  const key = await ensurePlatformSigningKey(ctx);
  const iat = Math.floor(ctx.clock.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: grant.issuer,
    sub: grant.userId,
    aud: grant.clientId,
    iat,
    exp: iat + PLATFORM_ID_TOKEN_TTL_S,
  };
  if (grant.nonce !== null) claims.nonce = grant.nonce;
  return signJwtWithKey(claims, key.alg, key.private_key, key.kid);
}

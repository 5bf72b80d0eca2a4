/**
 * Test identity providers run by the sandbox itself, so that an application can be configured
 * with an OpenID Connect issuer while offline. Each has its own key pair made with WebCrypto;
 * the service worker serves its discovery document and key set, and mints ID tokens signed
 * with its private key (kept as a JWK in the store: sandbox test material, never a real key).
 *
 * A sandbox provider is trusted by identity, not by host name: its issuer usually lives on the
 * sandbox's own origin (`http://127.0.0.1:<port>`), which the stricter issuer checks would
 * refuse, so the platform recognizes its registered issuers and uses their stored keys.
 */
import { write } from '../../store/write';
import type { SandboxIdentityProviderRecord } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { SANDBOX_ID_TOKEN_TTL_DEFAULT_S } from '../core/limits';
import { issuerUrlProblem } from './oidc-issuer';
import { generateSigningKey, signJwt, type JwtAlgorithm } from './oidc-jwt';
import type { PublicJwk } from './oidc';

/** Where the sandbox serves a provider, under the origin the request came to. */
export function sandboxProviderBase(origin: string, id: string): string {
  return `${origin}/sandbox/identity-providers/${id}`;
}

/**
 * Registers a provider with a fresh key pair. Its issuer is its own URL on the sandbox
 * (`{origin}/sandbox/identity-providers/{id}`) unless `issuer` names another absolute http(s)
 * URL; an issuer can be registered once.
 * @example const idp = await createSandboxIdentityProvider(ctx, { audience: 'my-game', origin: 'http://127.0.0.1:4173' });
 */
export async function createSandboxIdentityProvider(
  ctx: PlatformContext,
  input: { audience: string; issuer?: string; alg?: JwtAlgorithm; origin: string },
): Promise<SandboxIdentityProviderRecord> {
  if (input.issuer !== undefined) {
    const problem =
      issuerUrlProblem(input.issuer, 'legacy') ??
      (/[?#]/.test(input.issuer) ? 'Must not contain a query or a fragment.' : null);
    if (problem) throw ApiError.invalidForm({ issuer: problem });
  }
  const alg = input.alg ?? 'ES256';
  const { privateJwk, publicJwk } = await generateSigningKey(alg);
  const id = ctx.ids.next();
  const record: SandboxIdentityProviderRecord = {
    id,
    issuer: input.issuer ?? sandboxProviderBase(input.origin, id),
    audience: input.audience,
    alg,
    kid: `${id}-1`,
    private_jwk: privateJwk,
    public_jwk: publicJwk,
    created_at: ctx.clock.now(),
  };
  await write(ctx, ['sandbox_identity_providers'], async (tx) => {
    const store = tx.store('sandbox_identity_providers');
    if (await store.index('by_issuer').getKey(record.issuer))
      throw ApiError.invalidForm({ issuer: 'A sandbox identity provider with this issuer already exists.' });
    await store.add(record);
  });
  return record;
}

/** The provider `id`, or 404 when there is none. */
export async function getSandboxIdentityProvider(
  ctx: PlatformContext,
  id: string,
): Promise<SandboxIdentityProviderRecord> {
  const record = await ctx.db.get('sandbox_identity_providers', id);
  if (!record) throw ApiError.of('UNKNOWN_ROUTE');
  return record;
}

/** The sandbox provider whose issuer is exactly `issuer`, if one is registered. */
export async function findSandboxIdentityProvider(
  ctx: PlatformContext,
  issuer: string,
): Promise<SandboxIdentityProviderRecord | undefined> {
  return ctx.db.getFromIndex('sandbox_identity_providers', 'by_issuer', issuer);
}

/** The provider's public signing key as its key set lists it. */
export function sandboxPublicJwk(record: SandboxIdentityProviderRecord): PublicJwk {
  return { ...record.public_jwk, kid: record.kid, alg: record.alg, use: 'sig' };
}

/** What the provider answers without secrets: for the sandbox API. */
export function serializeSandboxIdentityProvider(record: SandboxIdentityProviderRecord, origin: string) {
  const base = sandboxProviderBase(origin, record.id);
  return {
    id: record.id,
    issuer: record.issuer,
    audience: record.audience,
    alg: record.alg,
    discovery_url: `${base}/.well-known/openid-configuration`,
    jwks_uri: `${base}/jwks`,
  };
}

/** The provider's OpenID Connect discovery document (Discovery §3, the members an ID-token verifier needs). */
export function sandboxDiscoveryDocument(record: SandboxIdentityProviderRecord, origin: string) {
  return {
    issuer: record.issuer,
    jwks_uri: `${sandboxProviderBase(origin, record.id)}/jwks`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [record.alg],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'nonce', 'preferred_username'],
  };
}

/**
 * Mints an ID token for `sub`, issued now by the platform clock and valid `expires_in`
 * seconds (negative values mint an already expired token, for tests).
 * @example const { id_token } = await mintSandboxIdToken(ctx, idp.id, { sub: 'player-1' });
 */
export async function mintSandboxIdToken(
  ctx: PlatformContext,
  id: string,
  input: { sub: string; expires_in?: number; audience?: string; preferred_username?: string; nonce?: string },
): Promise<{ id_token: string; expires_at: string }> {
  const record = await getSandboxIdentityProvider(ctx, id);
  const iat = Math.floor(ctx.clock.now() / 1000);
  const exp = iat + (input.expires_in ?? SANDBOX_ID_TOKEN_TTL_DEFAULT_S);
  const claims: Record<string, unknown> = {
    iss: record.issuer,
    sub: input.sub,
    aud: input.audience ?? record.audience,
    iat,
    exp,
  };
  if (input.preferred_username !== undefined) claims.preferred_username = input.preferred_username;
  if (input.nonce !== undefined) claims.nonce = input.nonce;
  return {
    id_token: await signJwt(claims, record.alg, record.private_jwk, record.kid),
    expires_at: new Date(exp * 1000).toISOString(),
  };
}

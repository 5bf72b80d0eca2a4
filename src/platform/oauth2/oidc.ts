/**
 * OpenID Connect ID tokens verified for real: the issuer's discovery document and key set are
 * fetched (with redirects refused for configurations under the stricter checks), the signature
 * is checked with WebCrypto (RS256, ES256), and the issuer, audience, expiry, not-before and
 * issue time are checked against the platform clock. The fetch function is injected: the
 * service worker passes the real one, tests a fake.
 */
import { ApiError } from '../core/errors';
import { EXTERNAL_ID_TOKEN_MAX_AGE_MS, OIDC_DOCUMENT_MAX_BYTES, OIDC_FETCH_TIMEOUT_MS } from '../core/limits';
import { discoveryUrl, issuerUrlProblem, type IssuerCheckMode } from './oidc-issuer';
import { isJwtAlgorithm, keyFitsAlgorithm, parseJwt, verifyJwtSignature } from './oidc-jwt';

/** The fetch the verifier uses: `globalThis.fetch` in the worker, a fake in tests. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** A JSON Web Key as a key set lists it. */
export type PublicJwk = JsonWebKey & { kid?: string };

/** How to reach an issuer: its checks mode and the fetch to use. */
export interface IssuerAccess {
  mode: IssuerCheckMode;
  fetch: FetchLike;
}

/** What a verified ID token says. */
export interface VerifiedIdToken {
  /** The subject: the user's stable id at the issuer. */
  sub: string;
  /** `preferred_username`, when it is a usable display name. */
  preferred_username: string | null;
  claims: Record<string, unknown>;
}

/** What an ID token is checked against. */
export interface IdTokenExpectations {
  issuer: string;
  audience: string;
  /** The platform clock's now, in epoch ms. */
  now: number;
  /** The issuer's signing keys (fetched from its key set, or a trusted sandbox provider's). */
  resolveKeys: () => Promise<PublicJwk[]>;
}

/**
 * Fetches a JSON document. Any redirect is an error in strict mode (`redirect: 'manual'`
 * answers a 3xx, or in a browser an `opaqueredirect` response); legacy configurations follow
 * redirects as they always did. `fail` builds the error, with the reason.
 */
async function fetchJsonDocument(
  url: string,
  access: IssuerAccess,
  fail: (reason: string) => ApiError,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await access.fetch(url, {
      method: 'GET',
      headers: { Accept: 'application/json' },
      redirect: access.mode === 'strict' ? 'manual' : 'follow',
      credentials: 'omit',
      signal: AbortSignal.timeout(OIDC_FETCH_TIMEOUT_MS),
    });
  } catch {
    throw fail('the request failed');
  }
  const redirected =
    response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400) || response.redirected;
  if (redirected && access.mode === 'strict') throw fail('it answered with a redirect, and redirects are not followed');
  if (!response.ok) throw fail(`it answered HTTP ${response.status}`);
  const text = await response.text();
  if (new TextEncoder().encode(text).byteLength > OIDC_DOCUMENT_MAX_BYTES) throw fail('the document is too large');
  try {
    const json: unknown = JSON.parse(text);
    if (json !== null && typeof json === 'object' && !Array.isArray(json)) return json as Record<string, unknown>;
  } catch {
    // Falls through to the error below.
  }
  throw fail('it is not a JSON object');
}

/**
 * The issuer's discovery document (OpenID Connect Discovery §4), which must name the same
 * issuer (§4.3) and a `jwks_uri` that passes the same URL checks as the issuer. Used when a
 * configuration is saved and before each key-set fetch.
 * @example const { jwks_uri } = await fetchDiscovery('https://login.game-studio.com', { mode: 'strict', fetch });
 */
export async function fetchDiscovery(
  issuer: string,
  access: IssuerAccess,
): Promise<{ issuer: string; jwks_uri: string }> {
  const fail = (reason: string) =>
    ApiError.of('OIDC_CONFIGURATION_NOT_FOUND', `The OpenID configuration of the issuer could not be used: ${reason}.`);
  const doc = await fetchJsonDocument(discoveryUrl(issuer), access, fail);
  if (doc.issuer !== issuer) throw fail('its "issuer" differs from the configured issuer');
  if (typeof doc.jwks_uri !== 'string') throw fail('it has no "jwks_uri"');
  const problem = issuerUrlProblem(doc.jwks_uri, access.mode);
  if (problem) throw fail(`its "jwks_uri" is not acceptable (${problem})`);
  return { issuer, jwks_uri: doc.jwks_uri };
}

/**
 * The issuer's signing keys: discovery, then its JSON Web Key Set (RFC 7517 §5), both with
 * redirects refused in strict mode.
 */
export async function fetchKeySet(issuer: string, access: IssuerAccess): Promise<PublicJwk[]> {
  const { jwks_uri } = await fetchDiscovery(issuer, access);
  const fail = (reason: string) =>
    ApiError.of('OIDC_JWKS_NOT_FOUND', `The key set of the issuer could not be used: ${reason}.`);
  const set = await fetchJsonDocument(jwks_uri, access, fail);
  if (!Array.isArray(set.keys)) throw fail('it has no "keys" array');
  return set.keys.filter((k): k is PublicJwk => k !== null && typeof k === 'object' && !Array.isArray(k));
}

const invalidToken = (why: string) => ApiError.of('INVALID_OIDC_TOKEN', `Invalid OpenID Connect ID token: ${why}.`);
const isSeconds = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Verifies an ID token. Errors, in the order they are checked: not a signed JWT or an
 * algorithm other than RS256/ES256 (530020), another issuer (530002), the issuer's
 * configuration or keys out of reach (530008, 530009), a bad signature (530020), another
 * audience (530003), expired by the platform clock (530001), not yet valid (530020), issued
 * more than a week ago (530004).
 * @example const { sub } = await verifyIdToken(token, { issuer, audience, now: ctx.clock.now(), resolveKeys });
 */
export async function verifyIdToken(token: string, expected: IdTokenExpectations): Promise<VerifiedIdToken> {
  const jwt = parseJwt(token);
  if (!jwt) throw invalidToken('it is not a signed JWT');
  const alg = jwt.header.alg;
  if (!isJwtAlgorithm(alg)) throw invalidToken('its algorithm is not RS256 or ES256');
  const { claims } = jwt;
  if (claims.iss !== expected.issuer) throw ApiError.of('EXTERNAL_TOKEN_INVALID_ISSUER');
  const kid = typeof jwt.header.kid === 'string' ? jwt.header.kid : undefined;
  const candidates = (await expected.resolveKeys()).filter(
    (k) => keyFitsAlgorithm(k, alg) && (kid === undefined || k.kid === kid),
  );
  let verified = false;
  for (const key of candidates) {
    if (await verifyJwtSignature(jwt, alg, key)) {
      verified = true;
      break;
    }
  }
  if (!verified) throw invalidToken('its signature does not match any key of the issuer');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expected.audience)) throw ApiError.of('EXTERNAL_TOKEN_INVALID_AUDIENCE');
  if (!isSeconds(claims.exp)) throw invalidToken('it has no expiry');
  if (expected.now >= claims.exp * 1000) throw ApiError.of('EXTERNAL_TOKEN_EXPIRED');
  if (claims.nbf !== undefined && (!isSeconds(claims.nbf) || expected.now < claims.nbf * 1000))
    throw invalidToken('it is not valid yet');
  if (
    claims.iat !== undefined &&
    (!isSeconds(claims.iat) || expected.now - claims.iat * 1000 > EXTERNAL_ID_TOKEN_MAX_AGE_MS)
  ) {
    throw ApiError.of('EXTERNAL_TOKEN_TOO_OLD');
  }
  if (typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > 255)
    throw invalidToken('its subject is missing');
  const name = claims.preferred_username;
  return {
    sub: claims.sub,
    preferred_username: typeof name === 'string' && name.trim().length > 0 ? name.trim() : null,
    claims,
  };
}

/**
 * Compact JSON Web Tokens (RFC 7519) signed with RS256 or ES256 (RFC 7518 §3.3, §3.4), through
 * `jose`: parsing, signature verification against a JSON Web Key, signing (the sandbox's test
 * identity providers and the platform's own ID tokens) and key generation. What is ours is the
 * choice: no other algorithm is accepted (`none` and the HMAC family would let anyone who knows a
 * public key forge a token), and a key verifies only the algorithm its type and declared `alg` and
 * `use` allow.
 */
import {
  type CryptoKey as JoseCryptoKey,
  compactVerify,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
} from 'jose';

/** The signature algorithms an ID token may use. */
export type JwtAlgorithm = 'RS256' | 'ES256';

/** The JWK key type each algorithm needs. */
const KEY_TYPES: Record<JwtAlgorithm, 'RSA' | 'EC'> = { RS256: 'RSA', ES256: 'EC' };

/** True when `alg` is an algorithm this module verifies. */
export function isJwtAlgorithm(alg: unknown): alg is JwtAlgorithm {
  return alg === 'RS256' || alg === 'ES256';
}

/** A token's header and claims, before any verification. */
export interface ParsedJwt {
  header: { alg?: unknown; kid?: unknown; typ?: unknown };
  claims: Record<string, unknown>;
  token: string;
}

/**
 * Reads a compact JWS's header and claims without verifying it; null when it is not one (three
 * base64url parts whose first two are JSON objects, a signature present).
 * @example parseJwt(idToken)?.claims.sub
 */
export function parseJwt(token: string): ParsedJwt | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[2].length === 0) return null;
  try {
    return { header: decodeProtectedHeader(token), claims: decodeJwt(token), token };
  } catch {
    return null;
  }
}

/**
 * The members of a public JWK that identify the key, without `alg`, `use` or `key_ops`: a key
 * set may describe them in ways WebCrypto's import refuses, and the caller already chose the
 * algorithm from the token's header.
 */
function publicKeyMembers(jwk: JsonWebKey): JWK | null {
  if (jwk.kty === 'RSA' && typeof jwk.n === 'string' && typeof jwk.e === 'string')
    return { kty: 'RSA', n: jwk.n, e: jwk.e };
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && typeof jwk.x === 'string' && typeof jwk.y === 'string')
    return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  return null;
}

/** True when `jwk` may verify a token signed with `alg` (key type, declared algorithm and use). */
export function keyFitsAlgorithm(jwk: JsonWebKey & { kid?: unknown }, alg: JwtAlgorithm): boolean {
  if (jwk.kty !== KEY_TYPES[alg]) return false;
  if (jwk.alg !== undefined && jwk.alg !== alg) return false;
  return jwk.use === undefined || jwk.use === 'sig';
}

/**
 * Whether `jwt`'s signature was made by the private half of `jwk` with `alg`. A key that cannot
 * be imported (wrong curve, malformed members) verifies nothing.
 */
export async function verifyJwtSignature(jwt: ParsedJwt, alg: JwtAlgorithm, jwk: JsonWebKey): Promise<boolean> {
  const members = publicKeyMembers(jwk);
  if (!members || members.kty !== KEY_TYPES[alg]) return false;
  try {
    await compactVerify(jwt.token, await importJWK(members, alg), { algorithms: [alg] });
    return true;
  } catch {
    return false;
  }
}

/** A fresh signing key pair as JWKs (the sandbox's test identity providers). */
export async function generateSigningKey(
  alg: JwtAlgorithm,
): Promise<{ privateJwk: JsonWebKey; publicJwk: JsonWebKey }> {
  const pair = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  const [privateJwk, publicJwk] = await Promise.all([exportJWK(pair.privateKey), exportJWK(pair.publicKey)]);
  return { privateJwk: privateJwk as JsonWebKey, publicJwk: publicKeyMembers(publicJwk as JsonWebKey)! };
}

/**
 * Signs `claims` as a compact JWS with the private JWK.
 * @example await signJwt({ sub: 'player-1', iss, aud, exp }, 'ES256', privateJwk, 'key-1')
 */
export async function signJwt(
  claims: Record<string, unknown>,
  alg: JwtAlgorithm,
  privateJwk: JsonWebKey,
  kid: string,
): Promise<string> {
  const { alg: _declared, key_ops: _ops, ext: _ext, ...members } = privateJwk;
  return signJwtWithKey(claims, alg, (await importJWK(members as JWK, alg)) as CryptoKey, kid);
}

/**
 * Signs `claims` as a compact JWS with a WebCrypto private key (which may be non-extractable).
 * @example await signJwtWithKey({ iss, sub, aud, exp, iat }, 'RS256', privateKey, kid)
 */
export function signJwtWithKey(
  claims: Record<string, unknown>,
  alg: JwtAlgorithm,
  key: CryptoKey,
  kid: string,
): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT', kid }).sign(key as JoseCryptoKey);
}

/**
 * A fresh RS256 key pair whose private half is non-extractable: it can sign and nothing else.
 * `extractable` only where the store keeps keys as JWK (`PlatformStorage.keysMustBeExtractable`),
 * which reads them back non-extractable. The public half is returned as the JWK a key set lists.
 */
export async function generateRs256SigningKey(
  extractable = false,
): Promise<{ privateKey: CryptoKey; publicJwk: JsonWebKey }> {
  const pair = await generateKeyPair('RS256', { extractable, modulusLength: 2048 });
  return {
    privateKey: pair.privateKey as CryptoKey,
    publicJwk: publicKeyMembers((await exportJWK(pair.publicKey)) as JsonWebKey)!,
  };
}

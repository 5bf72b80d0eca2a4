/**
 * Compact JSON Web Tokens (RFC 7519) signed with RS256 or ES256 (RFC 7518 §3.3, §3.4), with
 * WebCrypto only: parsing, signature verification against a JSON Web Key, and signing (for
 * the sandbox's test identity providers and the platform's own ID tokens). No other algorithm is accepted: `none` and the HMAC
 * family would let anyone who knows a public key forge a token.
 */

/** The signature algorithms an ID token may use. */
export type JwtAlgorithm = 'RS256' | 'ES256';

/** WebCrypto parameters and the JWK key type of each algorithm. */
const ALGORITHMS: Record<
  JwtAlgorithm,
  { kty: 'RSA' | 'EC'; key: RsaHashedImportParams | EcKeyImportParams; sign: AlgorithmIdentifier | EcdsaParams }
> = {
  RS256: { kty: 'RSA', key: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5' } },
  ES256: { kty: 'EC', key: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
};

/** True when `alg` is an algorithm this module verifies. */
export function isJwtAlgorithm(alg: unknown): alg is JwtAlgorithm {
  return alg === 'RS256' || alg === 'ES256';
}

/** A token split into its parts, before any verification. */
export interface ParsedJwt {
  header: { alg?: unknown; kid?: unknown; typ?: unknown };
  claims: Record<string, unknown>;
  /** `base64url(header) + "." + base64url(payload)`: the bytes the signature covers. */
  signingInput: string;
  signature: Uint8Array<ArrayBuffer>;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Base64url without padding (RFC 7515 §2). */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url; null when `text` is not base64url. */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function decodeJsonPart(part: string): Record<string, unknown> | null {
  const bytes = base64UrlDecode(part);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Splits a compact JWS into header, claims and signature; null when it is not one (three
 * base64url parts whose first two are JSON objects).
 * @example parseJwt(idToken)?.claims.sub
 */
export function parseJwt(token: string): ParsedJwt | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const header = decodeJsonPart(parts[0]);
  const claims = decodeJsonPart(parts[1]);
  const signature = base64UrlDecode(parts[2]);
  if (!header || !claims || !signature || signature.length === 0) return null;
  return { header, claims, signingInput: `${parts[0]}.${parts[1]}`, signature };
}

/**
 * The members of a public JWK that identify the key, without `alg`, `use` or `key_ops`: a key
 * set may describe them in ways WebCrypto's import refuses, and the caller already chose the
 * algorithm from the token's header.
 */
function publicKeyMembers(jwk: JsonWebKey): JsonWebKey | null {
  if (jwk.kty === 'RSA' && typeof jwk.n === 'string' && typeof jwk.e === 'string')
    return { kty: 'RSA', n: jwk.n, e: jwk.e };
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && typeof jwk.x === 'string' && typeof jwk.y === 'string')
    return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  return null;
}

/** True when `jwk` may verify a token signed with `alg` (key type, declared algorithm and use). */
export function keyFitsAlgorithm(jwk: JsonWebKey & { kid?: unknown }, alg: JwtAlgorithm): boolean {
  if (jwk.kty !== ALGORITHMS[alg].kty) return false;
  if (jwk.alg !== undefined && jwk.alg !== alg) return false;
  return jwk.use === undefined || jwk.use === 'sig';
}

/**
 * Whether `jwt`'s signature was made by the private half of `jwk` with `alg`. A key WebCrypto
 * cannot import (wrong curve, malformed members) verifies nothing.
 */
export async function verifyJwtSignature(jwt: ParsedJwt, alg: JwtAlgorithm, jwk: JsonWebKey): Promise<boolean> {
  const members = publicKeyMembers(jwk);
  if (!members || members.kty !== ALGORITHMS[alg].kty) return false;
  try {
    const key = await crypto.subtle.importKey('jwk', members, ALGORITHMS[alg].key, false, ['verify']);
    return await crypto.subtle.verify(
      ALGORITHMS[alg].sign,
      key,
      jwt.signature,
      new TextEncoder().encode(jwt.signingInput),
    );
  } catch {
    return false;
  }
}

/** A fresh signing key pair as JWKs (the sandbox's test identity providers). */
export async function generateSigningKey(
  alg: JwtAlgorithm,
): Promise<{ privateJwk: JsonWebKey; publicJwk: JsonWebKey }> {
  const params =
    alg === 'RS256'
      ? { ...ALGORITHMS.RS256.key, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }
      : ALGORITHMS.ES256.key;
  const pair = (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair;
  const [privateJwk, publicJwk] = await Promise.all([
    crypto.subtle.exportKey('jwk', pair.privateKey),
    crypto.subtle.exportKey('jwk', pair.publicKey),
  ]);
  return { privateJwk, publicJwk: publicKeyMembers(publicJwk)! };
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
  const { alg: _declared, key_ops: _ops, ...members } = privateJwk;
  const key = await crypto.subtle.importKey('jwk', members, ALGORITHMS[alg].key, false, ['sign']);
  return signJwtWithKey(claims, alg, key, kid);
}

/**
 * Signs `claims` as a compact JWS with a WebCrypto private key (which may be non-extractable).
 * @example await signJwtWithKey({ iss, sub, aud, exp, iat }, 'RS256', privateKey, kid)
 */
export async function signJwtWithKey(
  claims: Record<string, unknown>,
  alg: JwtAlgorithm,
  key: CryptoKey,
  kid: string,
): Promise<string> {
  const encode = (value: object) => base64UrlEncode(new TextEncoder().encode(JSON.stringify(value)));
  const signingInput = `${encode({ alg, typ: 'JWT', kid })}.${encode(claims)}`;
  const signature = new Uint8Array(
    await crypto.subtle.sign(ALGORITHMS[alg].sign, key, new TextEncoder().encode(signingInput)),
  );
  return `${signingInput}.${base64UrlEncode(signature)}`;
}

/**
 * A fresh RS256 key pair whose private half is non-extractable: it can sign and nothing else.
 * WebCrypto always lets the public half be exported; it is returned as the JWK a key set lists.
 * `extractable` only where the store keeps keys as JWK (`PlatformStorage.keysMustBeExtractable`),
 * which reads them back non-extractable.
 */
export async function generateRs256SigningKey(
  extractable = false,
): Promise<{ privateKey: CryptoKey; publicJwk: JsonWebKey }> {
  const params = { ...ALGORITHMS.RS256.key, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
  const pair = (await crypto.subtle.generateKey(params, extractable, ['sign', 'verify'])) as CryptoKeyPair;
  return {
    privateKey: pair.privateKey,
    publicJwk: publicKeyMembers(await crypto.subtle.exportKey('jwk', pair.publicKey))!,
  };
}

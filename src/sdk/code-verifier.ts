/**
 * PKCE (RFC 7636) for `Client.getToken`, and the OAuth2 `state` the SDK generates. Both come
 * from the platform's CSPRNG (`crypto.getRandomValues`), never from `Math.random`.
 */
import { generateSecret, pkceChallenge } from '../platform/core/secrets';

/**
 * The challenge half of a PKCE pair: what `AuthorizationArgs.setCodeChallenge` takes and the
 * authorization request carries. The spec leaves its structure open ("not shown"); this SDK
 * fixes it as the RFC 7636 pair of parameters: `challenge` is `code_challenge` (base64url
 * SHA-256 of the verifier, 43 characters) and `method` is `code_challenge_method`, always
 * `S256` (the SDK never offers `plain`).
 */
export interface AuthorizationCodeChallenge {
  readonly challenge: string;
  readonly method: 'S256';
}

/** What `createAuthorizationCodeVerifier` answers: the challenge for `authorize`, the verifier for `getToken`. */
export interface AuthorizationCodeVerifier {
  readonly challenge: AuthorizationCodeChallenge;
  /** The secret half: 43 to 128 unreserved characters; keep it until `getToken`. */
  readonly verifier: string;
}

/** Bytes of randomness in a verifier: 32 bytes are 43 base64url characters, RFC 7636's minimum. */
const VERIFIER_BYTES = 48;
/** Bytes of randomness in a generated OAuth2 state. */
const STATE_BYTES = 24;
/** RFC 7636 §4.2: a S256 challenge is 43 base64url characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A fresh PKCE pair.
 * @example
 * const { challenge, verifier } = await createAuthorizationCodeVerifier();
 * args.setCodeChallenge(challenge);
 * // ... authorize, then getToken(applicationId, code, verifier, redirectUri)
 */
export async function createAuthorizationCodeVerifier(): Promise<AuthorizationCodeVerifier> {
  const verifier = generateSecret(VERIFIER_BYTES);
  const challenge = Object.freeze({ challenge: await pkceChallenge(verifier), method: 'S256' as const });
  return Object.freeze({ challenge, verifier });
}

/**
 * A secure random OAuth2 `state`: what `authorize` sends when the arguments leave it unset.
 * @example generateState() // 'q0Jv…' (32 characters)
 */
export function generateState(): string {
  return generateSecret(STATE_BYTES);
}

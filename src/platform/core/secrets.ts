/**
 * Tokens and secrets: generated with the platform's CSPRNG, stored only as SHA-256 hashes,
 * and redacted from anything that is logged.
 */

const BASE64URL = /[+/=]/g;
const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replace(BASE64URL, (c) => (c === '+' ? '-' : c === '/' ? '_' : ''));

/**
 * A random secret of `bytes` bytes, base64url-encoded.
 * @example generateSecret() // 'Yw3X…' (43 characters)
 */
export function generateSecret(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * A bot token in the platform's three-part shape: base64 of the bot's user id, a random
 * part, and a random signature.
 */
export function generateBotToken(botUserId: string): string {
  return `${btoa(botUserId).replace(/=+$/, '')}.${generateSecret(4)}.${generateSecret(27)}`;
}

/** The SHA-256 of a secret, as lowercase hex: what the store keeps instead of the secret. */
export async function hashSecret(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret)));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** The base64url SHA-256 of a PKCE code verifier (RFC 7636 S256). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

// Case-insensitive: the API accepts `bearer` and `bot` in any case, and Basic carries the
// client secret. `%` keeps a form-encoded value whole.
const TOKEN_PATTERNS: RegExp[] = [
  /\b(Bot|Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  /\b(access_token|refresh_token|client_secret|bot_token|token|code|code_verifier|discord_proxy_ticket|ticket)(["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/=%-]+/gi,
];

/**
 * `text` with every bearer token, bot token and secret replaced by `[redacted]`: applied to
 * everything logged, so a token never reaches a log line.
 * @example redactSecrets('Authorization: Bot abc.def') // 'Authorization: Bot [redacted]'
 */
export function redactSecrets(text: string): string {
  return text
    .replace(TOKEN_PATTERNS[0], (_m, kind: string) => `${kind} [redacted]`)
    .replace(TOKEN_PATTERNS[1], (_m, key: string, sep: string) => `${key}${sep}[redacted]`);
}

/**
 * Client authentication at the token endpoints (RFC 6749 §2.3): HTTP Basic with the
 * form-encoded client id and secret, or `client_id` / `client_secret` in the body, never both.
 * A client that sends only its id is a public client: it may redeem a code it bound to a PKCE
 * challenge, and refresh or revoke the tokens that code gave it.
 */
import type { PlatformContext } from '../core/context';
import { OAuth2Error } from '../core/errors';
import type { ApplicationRecord } from '../../store/records/core';
import { hashSecret } from '../core/secrets';
import { isSnowflake } from '../core/snowflake';

/** The client credentials a request presented. */
export interface ClientCredentials {
  client_id: string;
  /** Null for a public client (no secret sent). */
  client_secret: string | null;
}

/** An identified client: `confidential` when it proved its secret. */
export interface OAuth2Client {
  application: ApplicationRecord;
  confidential: boolean;
}

/** The one description of a failed client authentication: it never says which part was wrong. */
const CLIENT_AUTH_FAILED = 'Client authentication failed.';

/** `application/x-www-form-urlencoded` decoding of one Basic credential part (RFC 6749 §2.3.1). */
function formDecode(part: string): string {
  return decodeURIComponent(part.replace(/\+/g, ' '));
}

/**
 * Reads the client credentials of a token or revocation request from its Authorization header
 * and form. Throws `invalid_request` when both methods are used and `invalid_client` when
 * neither is (or the Basic header is malformed).
 * @example readClientCredentials('Basic ' + btoa(`${id}:${secret}`), form)
 */
export function readClientCredentials(
  authorization: string | undefined,
  form: Record<string, string>,
): ClientCredentials {
  const basic = authorization ? /^Basic\s+(\S+)$/i.exec(authorization.trim()) : null;
  if (basic) {
    let id: string;
    let secret: string;
    try {
      const decoded = atob(basic[1]);
      const colon = decoded.indexOf(':');
      if (colon < 0) throw new OAuth2Error('invalid_client', CLIENT_AUTH_FAILED);
      id = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
    } catch {
      throw new OAuth2Error('invalid_client', CLIENT_AUTH_FAILED);
    }
    if (form.client_secret !== undefined) {
      throw new OAuth2Error(
        'invalid_request',
        'Use one client authentication method: HTTP Basic or client_secret in the body, not both.',
      );
    }
    if (form.client_id !== undefined && form.client_id !== id) {
      throw new OAuth2Error(
        'invalid_request',
        'The client_id in the body differs from the one in the Authorization header.',
      );
    }
    return { client_id: id, client_secret: secret === '' ? null : secret };
  }
  if (form.client_id === undefined) throw new OAuth2Error('invalid_client', CLIENT_AUTH_FAILED);
  return { client_id: form.client_id, client_secret: form.client_secret ? form.client_secret : null };
}

/**
 * Identifies the client and checks its secret when it sent one. An unknown client or a wrong
 * secret is `invalid_client` (401), with the same description either way.
 */
export async function authenticateClient(ctx: PlatformContext, credentials: ClientCredentials): Promise<OAuth2Client> {
  const application = isSnowflake(credentials.client_id)
    ? await ctx.db.get('applications', credentials.client_id)
    : undefined;
  const secretHash = credentials.client_secret === null ? null : await hashSecret(credentials.client_secret);
  if (!application) throw new OAuth2Error('invalid_client', CLIENT_AUTH_FAILED);
  if (secretHash === null) return { application, confidential: false };
  if (!constantTimeEqual(secretHash, application.client_secret_hash))
    throw new OAuth2Error('invalid_client', CLIENT_AUTH_FAILED);
  return { application, confidential: true };
}

/** Throws `invalid_client` unless the client proved its secret (what `purpose` needs). */
export function requireConfidential(client: OAuth2Client, purpose: string): void {
  if (!client.confidential)
    throw new OAuth2Error('invalid_client', `${CLIENT_AUTH_FAILED} ${purpose} needs the client secret.`);
}

/** String equality whose time does not depend on where the strings differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/**
 * Signing the player in, as an activity without a server of its own does it: AUTHORIZE (the
 * host page shows its consent dialog the first time; `prompt: "none"` skips it once granted)
 * with a PKCE challenge, the code exchanged at the token endpoint as a public client (the code
 * verifier instead of a client secret), then AUTHENTICATE with the access token.
 */
import type { ActivitySdk } from '../../../src/activity/index';
import { readAnswer } from '../../shared/api';

/** What the activity asks for: who you are, your guild's channels, your rich presence, lobbies for the moves. */
export const ACTIVITY_SCOPES = ['identify', 'guilds', 'rpc.activities.write', 'lobbies.write'];

/** The signed-in player. */
export interface SignedIn {
  access_token: string;
  user: { id: string; username: string; global_name: string | null };
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64url(digest) };
}

/**
 * Runs AUTHORIZE, the token exchange and AUTHENTICATE.
 * @example const { access_token, user } = await signIn(sdk, clientId);
 */
export async function signIn(sdk: ActivitySdk, clientId: string): Promise<SignedIn> {
  const { verifier, challenge } = await pkcePair();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: 'code',
    scope: ACTIVITY_SCOPES,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    prompt: 'none',
  });
  // Through the activity proxy, as every request of an activity goes.
  const response = await fetch('/.proxy/api/oauth2/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      code_verifier: verifier,
    }).toString(),
  });
  const { access_token } = await readAnswer<{ access_token: string }>('POST /oauth2/token', response);
  const session = await sdk.commands.authenticate({ access_token });
  return { access_token, user: session.user };
}

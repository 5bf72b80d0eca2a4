/**
 * Helpers for the account tests: a world whose application trusts a sandbox identity
 * provider, ID tokens minted by it, provisional tokens, and the OAuth2 form requests of the
 * merge flow.
 */
import { createWorld, type TestClient } from '../app-harness';

export const AUDIENCE = 'game-client';

/** POSTs an `application/x-www-form-urlencoded` body, as RFC 6749 clients do. */
export function form(client: TestClient, path: string, params: Record<string, string>) {
  return client.request('POST', path, {
    raw: new URLSearchParams(params).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

/** A world (alice, bob, the Game application) whose application accepts OIDC tokens of a sandbox provider. */
export async function oidcWorld(client: TestClient) {
  const world = await createWorld(client);
  const created = await client.post('/sandbox/identity-providers', { audience: AUDIENCE });
  const idp = created.body.identity_provider as { id: string; issuer: string; discovery_url: string; jwks_uri: string };
  const configured = await client.put(`/sandbox/applications/${world.application.id}/identity-provider`, {
    issuer: idp.issuer,
    audience: AUDIENCE,
  });
  if (configured.status !== 200)
    throw new Error(`configuring the identity provider failed: ${JSON.stringify(configured.body)}`);

  /** An ID token for `sub`, minted now by the platform clock. */
  const idToken = async (sub: string, extra: Record<string, unknown> = {}): Promise<string> =>
    (await client.post(`/sandbox/identity-providers/${idp.id}/id-tokens`, { sub, ...extra })).body.id_token;

  /** `POST /partner-sdk/token` with an external token; confidential (with the secret) unless `publicClient`. */
  const provisional = (externalToken: string, options: { publicClient?: boolean; type?: string } = {}) =>
    client.post('/api/v10/partner-sdk/token', {
      client_id: world.application.id,
      ...(options.publicClient ? {} : { client_secret: world.clientSecret }),
      external_auth_type: options.type ?? 'OIDC',
      external_auth_token: externalToken,
    });

  /** `POST /partner-sdk/token/bot` for a game account id. */
  const botProvisional = (externalUserId: string, name?: string) =>
    client.post(
      '/api/v10/partner-sdk/token/bot',
      { external_user_id: externalUserId, ...(name ? { preferred_global_name: name } : {}) },
      world.botAuth,
    );

  /** A fresh authorization code of `userId` for the application (the consent step, no redirect URI). */
  const authorizationCode = async (userId: string, scope = 'openid sdk.social_layer'): Promise<string> => {
    const query = new URLSearchParams({ client_id: world.application.id, response_type: 'code', scope });
    const res = await client.post(`/oauth2/authorize?${query}`, { authorize: true, user_id: userId });
    if (res.status !== 200) throw new Error(`authorize failed: ${JSON.stringify(res.body)}`);
    return res.body.code;
  };

  /** The merge: an authorization-code exchange that names the provisional account's external identity. */
  const merge = (code: string, externalToken: string, type = 'OIDC') =>
    form(client, '/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      client_id: world.application.id,
      client_secret: world.clientSecret,
      external_auth_type: type,
      external_auth_token: externalToken,
    });

  /** The user a Bearer token belongs to (`GET /users/@me`). */
  const me = async (accessToken: string) => client.get('/api/v10/users/@me', `Bearer ${accessToken}`);

  return { ...world, idp, idToken, provisional, botProvisional, authorizationCode, merge, me };
}

/** Every event of the log, oldest first. */
export async function allEvents(client: TestClient) {
  return client.db.getAll('events');
}

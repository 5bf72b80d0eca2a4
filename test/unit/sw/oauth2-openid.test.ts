// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { PlatformSigningKeyRecord } from '../../../src/store/schema';
import { ownsPath } from '../../../sw/paths';
import { createTestClient, createWorld, type TestClient } from '../app-harness';
import { form } from './accounts-fixtures';

const ORIGIN = 'http://platform.test';

/** A world, and alice's authorization code for `scope` (with `nonce` when given), redeemed by the confidential client. */
async function redeem(client: TestClient, scope: string, nonce?: string) {
  const w = await createWorld(client);
  const query = new URLSearchParams({
    client_id: w.application.id,
    response_type: 'code',
    scope,
    ...(nonce === undefined ? {} : { nonce }),
  });
  const consent = await client.post(`/oauth2/authorize?${query}`, { authorize: true, user_id: w.alice.id });
  expect(consent.status).toBe(200);
  const tokens = await form(client, '/oauth2/token', {
    grant_type: 'authorization_code',
    code: consent.body.code,
    client_id: w.application.id,
    client_secret: w.clientSecret,
  });
  expect(tokens.status).toBe(200);
  return { w, tokens: tokens.body };
}

const decodePart = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/**
 * What a backend does: read the discovery document, fetch its key set, pick the key by `kid`
 * and check the RS256 signature with WebCrypto, independently of the platform's own code.
 */
async function verifyAsBackend(client: TestClient, idToken: string): Promise<boolean> {
  const discovery = (await client.get('/.well-known/openid-configuration')).body;
  const jwks = await (await client.fetch(discovery.jwks_uri)).json();
  const [header, payload, signature] = idToken.split('.');
  const { kid, alg } = decodePart(header);
  expect(alg).toBe('RS256');
  const jwk = jwks.keys.find((k: { kid: string }) => k.kid === kid);
  expect(jwk).toBeDefined();
  const key = await crypto.subtle.importKey(
    'jwk',
    { kty: jwk.kty, n: jwk.n, e: jwk.e },
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  return crypto.subtle.verify(
    'RSASSA-PKCS1-v1_5',
    key,
    Buffer.from(signature, 'base64url'),
    new TextEncoder().encode(`${header}.${payload}`),
  );
}

describe('OpenID Connect: the platform issues ID tokens when openid is granted (AuthorizationArgs Nonce: backend integrations that use ID tokens)', () => {
  it('the authorization_code grant answers an id_token with iss, sub, aud, iat, exp and the nonce, whose signature verifies with the published key set', async () => {
    const client = await createTestClient();
    await client.put('/sandbox/clock', { now: '2026-05-06T07:08:09.000Z' });
    const { w, tokens } = await redeem(client, 'openid sdk.social_layer', 'nonce-from-the-game');
    expect(tokens.id_token).toEqual(expect.any(String));
    expect(await verifyAsBackend(client, tokens.id_token)).toBe(true);
    const iat = Date.parse('2026-05-06T07:08:09.000Z') / 1000;
    expect(decodePart(tokens.id_token.split('.')[1])).toEqual({
      iss: client.origin,
      sub: w.alice.id,
      aud: w.application.id,
      iat,
      exp: iat + 3600,
      nonce: 'nonce-from-the-game',
    });
    // The access token still works as before.
    expect((await client.get('/api/v10/users/@me', `Bearer ${tokens.access_token}`)).body.id).toBe(w.alice.id);
  });

  it('a tampered id_token does not verify: the claims are covered by the signature', async () => {
    const client = await createTestClient();
    const { w, tokens } = await redeem(client, 'openid identify', 'n-1');
    const [header, payload, signature] = tokens.id_token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodePart(payload), sub: w.bob.id })).toString('base64url');
    expect(await verifyAsBackend(client, `${header}.${forged}.${signature}`)).toBe(false);
  });

  it('no nonce claim when the authorize request sent none; no id_token without openid or from a refresh', async () => {
    const client = await createTestClient();
    const withOpenid = await redeem(client, 'openid identify');
    expect(decodePart(withOpenid.tokens.id_token.split('.')[1])).not.toHaveProperty('nonce');
    const without = await redeem(await createTestClient(), 'identify', 'ignored-without-openid');
    expect(without.tokens).not.toHaveProperty('id_token');
    const refreshed = await form(client, '/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: withOpenid.tokens.refresh_token,
      client_id: withOpenid.w.application.id,
      client_secret: withOpenid.w.clientSecret,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).not.toHaveProperty('id_token');
  });

  it('the nonce is bound to the code: each code answers the nonce of its own authorize request', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const codes: string[] = [];
    for (const nonce of ['first', 'second']) {
      const query = new URLSearchParams({ client_id: w.application.id, response_type: 'code', scope: 'openid', nonce });
      codes.push((await client.post(`/oauth2/authorize?${query}`, { authorize: true, user_id: w.alice.id })).body.code);
    }
    const nonces = [];
    for (const code of codes.reverse()) {
      const res = await form(client, '/oauth2/token', {
        grant_type: 'authorization_code',
        code,
        client_id: w.application.id,
        client_secret: w.clientSecret,
      });
      nonces.push(decodePart(res.body.id_token.split('.')[1]).nonce);
    }
    expect(nonces).toEqual(['second', 'first']);
  });

  it('the discovery document and key set are served by the worker; the private key is a non-extractable WebCrypto key in the store', async () => {
    const client = await createTestClient();
    expect(ownsPath(new URL(`${ORIGIN}/.well-known/openid-configuration`))).toBe(true);
    expect(ownsPath(new URL(`${ORIGIN}/.well-known/other`))).toBe(false);
    const discovery = await client.get('/.well-known/openid-configuration');
    expect(discovery.body).toMatchObject({
      issuer: client.origin,
      jwks_uri: `${client.origin}/api/oauth2/keys`,
      token_endpoint: `${client.origin}/api/oauth2/token`,
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['public'],
    });
    // The proxy prefix and the versioned path answer the same.
    expect((await client.get('/.proxy/.well-known/openid-configuration')).body).toEqual(discovery.body);
    const keys = (await client.get('/api/oauth2/keys')).body.keys;
    expect((await client.get('/api/v10/oauth2/keys')).body.keys).toEqual(keys);
    expect(keys).toEqual([
      expect.objectContaining({
        kty: 'RSA',
        alg: 'RS256',
        use: 'sig',
        kid: expect.any(String),
        n: expect.any(String),
        e: 'AQAB',
      }),
    ]);
    expect(keys[0]).not.toHaveProperty('d');
    const stored = (await client.db.get('meta', 'oidc_signing_key')) as PlatformSigningKeyRecord;
    expect(stored.kid).toBe(keys[0].kid);
    expect(stored.private_key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', stored.private_key)).rejects.toThrow();
  });

  it('a nonce that is empty or too long is 400 (50035) naming nonce, and no code is stored', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    for (const nonce of ['', 'n'.repeat(513)]) {
      const query = new URLSearchParams({ client_id: w.application.id, response_type: 'code', scope: 'openid', nonce });
      const res = await client.post(`/oauth2/authorize?${query}`, { authorize: true, user_id: w.alice.id });
      expect([res.status, res.body.code, Object.keys(res.body.errors ?? {})]).toEqual([400, 50035, ['nonce']]);
    }
    expect(await client.db.count('auth_codes')).toBe(0);
  });
});

// @vitest-environment node
import { createPublicKey, verify } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestClient } from '../app-harness';
import { fakeNetwork, mintIdToken, providerRoutes, redirectTo, testKey } from '../platform/oauth2/oidc-fixtures';
import { AUDIENCE, allEvents, form, oidcWorld } from './accounts-fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function counts(client: Awaited<ReturnType<typeof createTestClient>>) {
  const db = client.app.ctx.db;
  return {
    users: await db.count('users'),
    tokens: await db.count('tokens'),
    identities: await db.count('external_identities'),
  };
}

describe('provisional accounts from an external identity (Authentication rule 4)', () => {
  it('the same external identity always maps to the same provisional user per application', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const first = await w.provisional(await w.idToken('player-1', { preferred_username: 'Nova' }));
    const second = await w.provisional(await w.idToken('player-1'));
    expect([first.status, second.status]).toEqual([200, 200]);
    const [a, b] = [await w.me(first.body.access_token), await w.me(second.body.access_token)];
    expect(a.body.id).toBe(b.body.id);
    expect(a.body.global_name).toBe('Nova');
    expect((await client.app.ctx.db.get('users', a.body.id))?.provisional).toBe(true);
    const other = await w.provisional(await w.idToken('player-2'));
    expect((await w.me(other.body.access_token)).body.id).not.toBe(a.body.id);

    // Another application trusting the same provider gets its own provisional user for the same subject.
    const game2 = (await client.post('/sandbox/applications', { name: 'Game 2' })).body;
    await client.put(`/sandbox/applications/${game2.application.id}/identity-provider`, {
      issuer: w.idp.issuer,
      audience: AUDIENCE,
    });
    const elsewhere = await client.post('/api/v10/partner-sdk/token', {
      client_id: game2.application.id,
      client_secret: game2.client_secret,
      external_auth_type: 'OIDC',
      external_auth_token: await w.idToken('player-1'),
    });
    expect((await w.me(elsewhere.body.access_token)).body.id).not.toBe(a.body.id);
  });

  it('answers an OAuth2 token response: Bearer, one hour, sdk.social_layer; OIDC exchanged by a server carries a refresh token, a public client gets none', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const server = await w.provisional(await w.idToken('player-1'));
    expect(server.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'sdk.social_layer' });
    expect(server.body.refresh_token).toEqual(expect.any(String));
    expect(server.headers.get('Cache-Control')).toBe('no-store');
    const pub = await w.provisional(await w.idToken('player-1'), { publicClient: true });
    expect(pub.status).toBe(200);
    expect(pub.body.refresh_token).toBeUndefined();
    // The access token expires an hour later by the platform clock.
    const now = Date.parse('2026-05-01T00:00:00Z');
    await client.put('/sandbox/clock', { now: new Date(now).toISOString() });
    const fresh = await w.provisional(await w.idToken('player-1'));
    await client.put('/sandbox/clock', { now: new Date(now + 3600_000).toISOString() });
    expect((await w.me(fresh.body.access_token)).status).toBe(401);
  });

  it('the refresh_token grant of an OIDC provisional token is refused as deprecated: invalid_grant telling the app to re-authenticate and call Client::UpdateToken', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const tokens = (await w.provisional(await w.idToken('player-1'))).body;
    const before = await counts(client);
    const res = await form(client, '/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(res.body.error_description).toMatch(/deprecated/);
    expect(res.body.error_description).toMatch(/Client::UpdateToken/);
    expect(JSON.stringify(res.body)).not.toContain(tokens.refresh_token);
    expect(await counts(client)).toEqual(before);
    expect((await w.me(tokens.access_token)).status).toBe(200);
  });

  it('verifies the ID token: an expired one by the sandbox clock is 530001, another audience 530003, another issuer 530002, a bad signature 530020', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const start = Date.parse('2026-05-01T00:00:00Z');
    await client.put('/sandbox/clock', { now: new Date(start).toISOString() });
    const shortLived = await w.idToken('player-1', { expires_in: 60 });
    await client.put('/sandbox/clock', { now: new Date(start + 61_000).toISOString() });
    expect((await w.provisional(shortLived)).body.code).toBe(530001);
    await client.put('/sandbox/clock', { now: new Date(start + 59_000).toISOString() });
    expect((await w.provisional(shortLived)).status).toBe(200);

    expect((await w.provisional(await w.idToken('player-1', { audience: 'another-game' }))).body.code).toBe(530003);
    const stranger = (await client.post('/sandbox/identity-providers', { audience: AUDIENCE })).body.identity_provider;
    const foreign = (await client.post(`/sandbox/identity-providers/${stranger.id}/id-tokens`, { sub: 'player-1' }))
      .body.id_token;
    expect((await w.provisional(foreign)).body.code).toBe(530002);
    const [h, p] = (await w.idToken('player-1')).split('.');
    const forgedSignature = (
      await client.post(`/sandbox/identity-providers/${stranger.id}/id-tokens`, { sub: 'player-1' })
    ).body.id_token.split('.')[2];
    const failed = await w.provisional(`${h}.${p}.${forgedSignature}`);
    expect(failed.body.code).toBe(530020);
    expect(JSON.stringify(failed.body)).not.toContain(h);
  });

  it('an application without a provider for the type is 530000; a wrong secret 530007; a failed request stores nothing', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const before = await counts(client);
    expect((await w.provisional(await w.idToken('p'), { type: 'STEAM_SESSION_TICKET' })).body.code).toBe(530000);
    const wrong = await client.post('/api/v10/partner-sdk/token', {
      client_id: w.application.id,
      client_secret: 'nope',
      external_auth_type: 'OIDC',
      external_auth_token: await w.idToken('p'),
    });
    expect([wrong.status, wrong.body.code]).toEqual([401, 530007]);
    const bad = await client.post('/api/v10/partner-sdk/token', {
      client_id: w.application.id,
      external_auth_type: 'PASSWORD',
      external_auth_token: 'x',
    });
    expect(bad.body.errors.external_auth_type).toBeDefined();
    expect(await counts(client)).toEqual(before);
  });
});

describe('provisional accounts server-side with the bot token (Authentication rule 7)', () => {
  it('the bot token endpoint creates a provisional account for external_user_id, the same one each time, named by preferred_global_name', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const first = await w.botProvisional('account-77', 'Skipper');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'sdk.social_layer' });
    expect(first.body.refresh_token).toBeUndefined();
    const second = await w.botProvisional('account-77');
    const [a, b] = [await w.me(first.body.access_token), await w.me(second.body.access_token)];
    expect(a.body.id).toBe(b.body.id);
    expect(a.body.global_name).toBe('Skipper');
    expect((await client.app.ctx.db.get('users', a.body.id))?.provisional).toBe(true);
  });

  it('needs the bot token: a Bearer token is 403 (20002), none is 401', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    expect(
      (await client.post('/api/v10/partner-sdk/token/bot', { external_user_id: 'a' }, w.aliceAuth)).body.code,
    ).toBe(20002);
    expect((await client.post('/api/v10/partner-sdk/token/bot', { external_user_id: 'a' })).status).toBe(401);
  });

  it('a bot-issued access token identifies its account as DISCORD_BOT_ISSUED_ACCESS_TOKEN', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const issued = (await w.botProvisional('account-9')).body.access_token;
    const again = await w.provisional(issued, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN' });
    expect((await w.me(again.body.access_token)).body.id).toBe((await w.me(issued)).body.id);
  });
});

describe('OIDC configuration: stricter hostname checks, redirects blocked (Authentication rule 4)', () => {
  const ISSUER = 'https://login.game-studio.com';

  it('configuring an issuer refuses http, IP literals and localhost, naming the issuer field; sandbox providers are trusted by identity', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    for (const issuer of [
      'http://login.game-studio.com',
      'https://127.0.0.1',
      'https://localhost',
      'http://platform.test/sandbox/identity-providers/1',
    ]) {
      const res = await client.put(`/sandbox/applications/${w.application.id}/identity-provider`, {
        issuer,
        audience: AUDIENCE,
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.issuer._errors[0].message).toBeTypeOf('string');
    }
    // The sandbox's own provider lives on http://platform.test and was accepted by identity.
    expect(w.idp.issuer.startsWith('http://platform.test/')).toBe(true);
  });

  it('blocks a redirect while fetching the discovery document on configuration, and the key set on verification', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const key = testKey('RS256');
    const redirecting = fakeNetwork({
      [`${ISSUER}/.well-known/openid-configuration`]: redirectTo('https://evil.example-cdn.com/'),
    });
    vi.stubGlobal('fetch', redirecting.fetch);
    const refused = await client.put(`/sandbox/applications/${w.application.id}/identity-provider`, {
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.issuer._errors[0].message).toMatch(/redirect/);
    expect(redirecting.calls[0].redirect).toBe('manual');

    const routes = providerRoutes(ISSUER, [key]);
    const good = fakeNetwork(routes);
    vi.stubGlobal('fetch', good.fetch);
    const saved = await client.put(`/sandbox/applications/${w.application.id}/identity-provider`, {
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    expect(saved.body.identity_provider).toMatchObject({ issuer: ISSUER, strict: true });
    const now = Math.floor(client.app.ctx.clock.now() / 1000);
    const token = mintIdToken(key, { iss: ISSUER, aud: AUDIENCE, sub: 'real-1', iat: now, exp: now + 600 });
    expect((await w.provisional(token)).status).toBe(200);

    routes[`${ISSUER}/jwks.json`] = redirectTo('https://keys.attacker-cdn.com/');
    expect((await w.provisional(token)).body.code).toBe(530009);
  });

  it('existing integrations are unaffected until their configuration is edited: a legacy issuer keeps lax checks and followed redirects', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const legacyIssuer = 'http://10.0.0.5:8080/idp';
    const key = testKey('ES256');
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      // The fake network redirects the discovery document; only a following fetch reaches it.
      if (url === `${legacyIssuer}/.well-known/openid-configuration`) {
        return init?.redirect === 'follow'
          ? Response.json({ issuer: legacyIssuer, jwks_uri: `${legacyIssuer}/keys` })
          : redirectTo('/moved')();
      }
      return Response.json({ keys: [key.jwk] });
    });
    // A type the world has not configured yet: a new configuration may model a legacy one.
    const type = 'EPIC_ONLINE_SERVICES_ID_TOKEN';
    const path = `/sandbox/applications/${w.application.id}/identity-provider`;
    const legacy = await client.put(path, { auth_type: type, issuer: legacyIssuer, audience: AUDIENCE, legacy: true });
    expect(legacy.body.identity_provider.strict).toBe(false);
    const now = Math.floor(client.app.ctx.clock.now() / 1000);
    expect(
      (
        await w.provisional(
          mintIdToken(key, { iss: legacyIssuer, aud: AUDIENCE, sub: 'old-1', iat: now, exp: now + 600 }),
          { type },
        )
      ).status,
    ).toBe(200);
    const edited = await client.put(path, { auth_type: type, issuer: legacyIssuer, audience: AUDIENCE });
    expect(edited.status).toBe(400);
  });

  it('an edited configuration drops the legacy leniency: editing with legacy: true again is 400 naming legacy and stores nothing', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const path = `/sandbox/applications/${w.application.id}/identity-provider`;
    const type = 'UNITY_SERVICES_ID_TOKEN';
    expect(
      (
        await client.put(path, {
          auth_type: type,
          issuer: 'http://10.0.0.5:8080/idp',
          audience: AUDIENCE,
          legacy: true,
        })
      ).body.identity_provider.strict,
    ).toBe(false);
    const before = await client.app.ctx.db.get('identity_provider_configs', [w.application.id, type]);
    // Also for the OIDC configuration oidcWorld saved (strict, a sandbox provider).
    for (const body of [
      { auth_type: type, issuer: 'http://10.0.0.5:8080/idp', audience: 'another', legacy: true },
      { issuer: w.idp.issuer, audience: AUDIENCE, legacy: true },
    ]) {
      const res = await client.put(path, body);
      expect([res.status, res.body.code, Object.keys(res.body.errors)]).toEqual([400, 50035, ['legacy']]);
    }
    expect(await client.app.ctx.db.get('identity_provider_configs', [w.application.id, type])).toEqual(before);
    // An edit without it is checked strictly: the sandbox provider's issuer passes and stays strict.
    const strict = await client.put(path, { issuer: w.idp.issuer, audience: AUDIENCE });
    expect([strict.status, strict.body.identity_provider.strict]).toEqual([200, true]);
  });

  it('sandbox providers sign with WebCrypto (ES256 and RS256) tokens an independent verifier accepts with their published key', async () => {
    const client = await createTestClient();
    for (const alg of ['ES256', 'RS256'] as const) {
      const idp = (
        await client.post('/sandbox/identity-providers', {
          audience: AUDIENCE,
          alg,
          issuer: `https://${alg.toLowerCase()}.login.game-studio.com`,
        })
      ).body.identity_provider;
      const minted = await client.post(`/sandbox/identity-providers/${idp.id}/id-tokens`, {
        sub: 'player-1',
        expires_in: 120,
      });
      expect(minted.status).toBe(201);
      const [h, p, sig] = minted.body.id_token.split('.');
      expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toMatchObject({ alg, kid: expect.any(String) });
      expect(JSON.parse(Buffer.from(p, 'base64url').toString())).toMatchObject({
        iss: idp.issuer,
        aud: AUDIENCE,
        sub: 'player-1',
      });
      const jwk = (await client.get(new URL(idp.jwks_uri).pathname)).body.keys[0];
      const key = createPublicKey({ key: jwk, format: 'jwk' });
      const options = alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' as const } : key;
      expect(verify('sha256', Buffer.from(`${h}.${p}`), options, Buffer.from(sig, 'base64url'))).toBe(true);
    }
  });

  it('the sandbox provider serves its discovery document and key set from the worker', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const doc = await client.get(new URL(w.idp.discovery_url).pathname);
    expect(doc.body).toMatchObject({ issuer: w.idp.issuer, jwks_uri: w.idp.jwks_uri });
    const jwks = await client.get(new URL(w.idp.jwks_uri).pathname);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.body.keys[0].d).toBeUndefined();
    expect(JSON.stringify(await allEvents(client))).not.toMatch(/"d":/);
  });
});

// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createTestClient, createWorld, type TestClient } from '../app-harness';

async function premiumWorld() {
  const client = await createTestClient();
  const alice = (await client.post('/sandbox/users', { username: 'alice', premium_type: 2 })).body.user;
  const app = (await client.post('/sandbox/applications', { name: 'Game' })).body.application;
  const token = async (scopes: string) =>
    `Bearer ${(await client.post('/sandbox/tokens', { application_id: app.id, user_id: alice.id, scopes })).body.access_token}`;
  const premiumOf = async (auth: string) => (await client.get('/api/v10/users/@me', auth)).body.premium_type;
  return { client, alice, app, token, premiumOf };
}

const authorizeQuery = (clientId: string, scope: string) =>
  `/oauth2/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', scope })}`;

describe('User.premium_type: 0 unless the app is approved for identify.premium and the user granted it', () => {
  it('is 0 without the approval, 0 with the approval but without the grant, and the stored tier with both', async () => {
    const { client, app, token, premiumOf } = await premiumWorld();
    const granted = await token('identify identify.premium');
    const plain = await token('identify');
    expect(await premiumOf(granted)).toBe(0);
    const patched = await client.patch(`/sandbox/applications/${app.id}`, { approvals: { identify_premium: true } });
    expect(patched.status).toBe(200);
    expect(patched.body.application.approvals).toEqual({
      identify_premium: true,
      sdk_terms_accepted: false,
      privileged_intents_approved: false,
    });
    expect(await premiumOf(plain)).toBe(0);
    expect(await premiumOf(granted)).toBe(2);
  });

  it('the consent step offers identify.premium only to approved partners', async () => {
    const { client, app, alice } = await premiumWorld();
    const refused = await client.get(authorizeQuery(app.id, 'identify identify.premium'));
    expect(refused.status).toBe(400);
    expect(refused.body.errors.scope._errors[0].message).toMatch(/approved partners/);
    await client.patch(`/sandbox/applications/${app.id}`, { approvals: { identify_premium: true } });
    const consent = await client.post(authorizeQuery(app.id, 'identify identify.premium'), {
      authorize: true,
      user_id: alice.id,
    });
    expect(consent.status).toBe(200);
    expect(consent.body.code).toEqual(expect.any(String));
  });
});

describe('relationships.read is available to activities once the application accepted the SDK terms (Authentication rule 2)', () => {
  async function activity(client: TestClient) {
    const world = await createWorld(client);
    await client.patch(`/sandbox/applications/${world.application.id}`, { flags: APPLICATION_FLAGS.EMBEDDED });
    return world;
  }

  it('refuses the scope before the terms are accepted, and grants it after, with no other approval', async () => {
    const client = await createTestClient();
    const world = await activity(client);
    expect((await client.get(authorizeQuery(world.application.id, 'identify relationships.read'))).status).toBe(400);
    await client.patch(`/sandbox/applications/${world.application.id}`, { approvals: { sdk_terms_accepted: true } });
    expect((await client.get(authorizeQuery(world.application.id, 'identify relationships.read'))).status).toBe(200);
  });

  /** A Bearer token of alice through the consent step and the token endpoint, as a game gets one. */
  async function consented(client: TestClient, world: Awaited<ReturnType<typeof activity>>, scope: string) {
    const code = (
      await client.post(authorizeQuery(world.application.id, scope), { authorize: true, user_id: world.alice.id })
    ).body.code;
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: world.application.id,
      client_secret: world.clientSecret,
    });
    const res = await client.request('POST', '/oauth2/token', {
      raw: body.toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    return `Bearer ${res.body.access_token}`;
  }

  it('the SDK umbrella scopes stand for relationships.read for an activity only once the terms are accepted: GET /users/@me/relationships is 403, then 200', async () => {
    const client = await createTestClient();
    const world = await activity(client);
    const issued: string[] = [];
    for (const umbrella of ['openid sdk.social_layer', 'openid sdk.social_layer_presence']) {
      // The umbrella stays grantable: it carries lobbies, presence and messages too.
      const auth = await consented(client, world, umbrella);
      issued.push(auth);
      const refused = await client.get('/api/v10/users/@me/relationships', auth);
      expect([refused.status, refused.body.code, refused.body.message]).toEqual([
        403,
        50001,
        'Missing OAuth2 scope: relationships.read',
      ]);
      const session = await client.get('/api/v10/rpc/session', auth);
      expect(session.body.effective_scopes).not.toContain('relationships.read');
      expect(session.body.effective_scopes).toContain('relationships.write');
    }
    await client.patch(`/sandbox/applications/${world.application.id}`, { approvals: { sdk_terms_accepted: true } });
    // Accepting the terms makes the scope available to tokens already issued.
    for (const auth of issued) {
      expect((await client.get('/api/v10/users/@me/relationships', auth)).status).toBe(200);
      expect((await client.get('/api/v10/rpc/session', auth)).body.effective_scopes).toContain('relationships.read');
    }
  });

  it('relationships.read granted directly (the sandbox token fixture skips consent) reaches nothing before the terms are accepted', async () => {
    const client = await createTestClient();
    const world = await activity(client);
    const token = (
      await client.post('/sandbox/tokens', {
        application_id: world.application.id,
        user_id: world.alice.id,
        scopes: 'relationships.read',
      })
    ).body.access_token;
    expect((await client.get('/api/v10/users/@me/relationships', `Bearer ${token}`)).status).toBe(403);
    await client.patch(`/sandbox/applications/${world.application.id}`, { approvals: { sdk_terms_accepted: true } });
    expect((await client.get('/api/v10/users/@me/relationships', `Bearer ${token}`)).status).toBe(200);
  });

  it('an application that is not an activity reads relationships through the umbrella scope without the SDK terms', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    expect((await client.get('/api/v10/users/@me/relationships', world.aliceAuth)).status).toBe(200);
  });
});

describe('PATCH /sandbox/applications/{id}', () => {
  it('sets flags (flags_new keeps every bit), the obfuscation opt-in and redirect URIs; an unknown application is 404 and a bad body 50035', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const big = (1n << 40n) | BigInt(APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED);
    const res = await client.patch(`/sandbox/applications/${world.application.id}`, {
      flags: big.toString(),
      channel_obfuscation: true,
      redirect_uris: ['https://game.example/cb'],
    });
    expect(res.body.application).toMatchObject({
      flags: APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED,
      flags_new: big.toString(),
      channel_obfuscation: true,
      redirect_uris: ['https://game.example/cb'],
    });
    expect((await client.patch('/sandbox/applications/1234567890123', { channel_obfuscation: true })).body.code).toBe(
      10002,
    );
    expect(
      (await client.patch(`/sandbox/applications/${world.application.id}`, { approvals: { identify_premium: 'yes' } }))
        .body.code,
    ).toBe(50035);
  });
});

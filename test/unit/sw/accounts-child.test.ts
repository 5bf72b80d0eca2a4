// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { OAUTH2_ACCESS_TOKEN_TTL_S } from '../../../src/platform/core/limits';
import { createTestClient, type TestClient } from '../app-harness';
import { form, oidcWorld } from './accounts-fixtures';

/** The world's application as the publisher, with a game application approved as its child (unless `approve` is false). */
async function publisherWorld(approve = true) {
  const client = await createTestClient();
  const w = await oidcWorld(client);
  const game = (await client.post('/sandbox/applications', { name: 'Game A', owner_id: w.alice.id })).body;
  if (approve)
    expect(
      (await client.put(`/sandbox/applications/${w.application.id}/children/${game.application.id}`, {})).status,
    ).toBe(200);
  const exchange = (parent: string, secret: string | null = w.clientSecret, childId: string = game.application.id) =>
    client.post('/api/v10/partner-sdk/child-token', {
      parent_access_token: parent,
      child_application_id: childId,
      ...(secret === null ? {} : { parent_client_secret: secret }),
    });
  return { client, w, game, exchange };
}

const oauthMe = (client: TestClient, token: string) => client.get('/oauth2/@me', `Bearer ${token}`);

describe('publisher-level account linking: child token exchange (Authentication rule 6)', () => {
  it("an approved pair exchanges the parent's token for a child token of the same user and scopes, with no refresh token", async () => {
    const { client, w, game, exchange } = await publisherWorld();
    const res = await exchange(w.aliceTokens.access_token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      scope: 'openid sdk.social_layer',
    });
    expect(res.body.refresh_token).toBeUndefined();
    expect((await client.get('/api/v10/users/@me', `Bearer ${res.body.access_token}`)).body.id).toBe(w.alice.id);
    expect((await oauthMe(client, res.body.access_token)).body.application.id).toBe(game.application.id);
  });

  it('requires approval: a pair that is not approved is 403 (20012) and stores nothing', async () => {
    const { client, w, exchange } = await publisherWorld(false);
    const before = await client.app.ctx.db.count('tokens');
    const res = await exchange(w.aliceTokens.access_token);
    expect([res.status, res.body.code]).toEqual([403, 20012]);
    expect(await client.app.ctx.db.count('tokens')).toBe(before);
  });

  it('the child token expires when the parent token does, by the platform clock', async () => {
    const { client, w, exchange } = await publisherWorld();
    const start = Date.parse('2026-06-01T00:00:00Z');
    await client.put('/sandbox/clock', { now: new Date(start).toISOString() });
    const parent = (
      await client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.bob.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body;
    await client.put('/sandbox/clock', { now: new Date(start + 1000_000).toISOString() });
    const child = (await exchange(parent.access_token)).body;
    expect(child.expires_in).toBe(OAUTH2_ACCESS_TOKEN_TTL_S - 1000);
    await client.put('/sandbox/clock', { now: new Date(start + OAUTH2_ACCESS_TOKEN_TTL_S * 1000).toISOString() });
    expect((await client.get('/api/v10/users/@me', `Bearer ${child.access_token}`)).status).toBe(401);
  });

  it('a server exchanges with the parent client secret (530007 when wrong); without one only a public-client parent token exchanges', async () => {
    const { w, exchange } = await publisherWorld();
    expect((await exchange(w.aliceTokens.access_token, 'wrong')).body.code).toBe(530007);
    expect((await exchange(w.aliceTokens.access_token, null)).status).toBe(401);
    const publicParent = (await w.provisional(await w.idToken('player-1'), { publicClient: true })).body.access_token;
    const res = await exchange(publicParent, null);
    expect(res.status).toBe(200);
    expect((await w.me(res.body.access_token)).body.id).toBe((await w.me(publicParent)).body.id);
  });

  it('an unknown parent token, or a child token used as a parent, is 401', async () => {
    const { w, exchange } = await publisherWorld();
    expect((await exchange('not-a-token')).status).toBe(401);
    const child = (await exchange(w.aliceTokens.access_token)).body.access_token;
    expect((await exchange(child)).status).toBe(401);
  });

  it('revoking the publisher token invalidates its child tokens at once', async () => {
    const { client, w, exchange } = await publisherWorld();
    const child = (await exchange(w.aliceTokens.access_token)).body.access_token;
    const revoke = await form(client, '/oauth2/token/revoke', {
      token: w.aliceTokens.access_token,
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect(revoke.status).toBe(200);
    expect((await client.get('/api/v10/users/@me', `Bearer ${child}`)).status).toBe(401);
  });

  it("approving a pair deletes the child's existing tokens and external identities, and a child cannot become a parent", async () => {
    const { client, w, game } = await publisherWorld(false);
    const direct = (
      await client.post('/sandbox/tokens', {
        application_id: game.application.id,
        user_id: w.bob.id,
        scopes: 'identify',
      })
    ).body.access_token;
    expect((await client.get('/api/v10/users/@me', `Bearer ${direct}`)).status).toBe(200);
    await client.put(`/sandbox/applications/${w.application.id}/children/${game.application.id}`, {});
    expect((await client.get('/api/v10/users/@me', `Bearer ${direct}`)).status).toBe(401);
    const third = (await client.post('/sandbox/applications', { name: 'Game B' })).body.application;
    expect((await client.put(`/sandbox/applications/${game.application.id}/children/${third.id}`, {})).status).toBe(
      400,
    );
    expect((await client.put(`/sandbox/applications/${third.id}/children/${game.application.id}`, {})).status).toBe(
      400,
    );
  });
});

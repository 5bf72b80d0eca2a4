// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { enableWebhooks, webhookWorld } from './webhook-fixtures';

describe('a user revokes an application\'s authorization (spec: APPLICATION_DEAUTHORIZED "user unlinks, revokes authorization")', () => {
  it("deletes the user's tokens for the app, records APPLICATION_DEAUTHORIZED with the user and no token, and refresh is then invalid_grant", async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id);
    const before = endpoint.events().length;
    const tokens = world.aliceTokens;
    expect((await client.get('/api/v10/users/@me', world.aliceAuth)).status).toBe(200);

    const res = await client.delete(`/sandbox/users/${world.alice.id}/authorizations/${world.application.id}`);
    expect(res.status).toBe(204);
    await client.app.webhooks.settled();

    expect((await client.get('/api/v10/users/@me', world.aliceAuth)).status).toBe(401);
    const refresh = await client.request('POST', '/api/v10/oauth2/token', {
      raw: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: world.application.id,
        client_secret: world.clientSecret,
      }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(refresh.body.error).toBe('invalid_grant');
    // Bob's authorization of the same app is untouched.
    expect((await client.get('/api/v10/users/@me', world.bobAuth)).status).toBe(200);

    const sent = endpoint
      .events()
      .slice(before)
      .filter((e: any) => e.payload.event?.type === 'APPLICATION_DEAUTHORIZED');
    expect(sent).toHaveLength(1);
    expect(sent[0].payload.event.data.user.id).toBe(world.alice.id);
    expect(sent[0].body).not.toContain(tokens.access_token);
    expect(sent[0].body).not.toContain(tokens.refresh_token);
  });

  it('revoking an app the user never authorized records nothing; unknown ids are 404', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id);
    const carol = (await client.post('/sandbox/users', { username: 'carol' })).body.user;
    const before = endpoint.events().length;
    expect((await client.delete(`/sandbox/users/${carol.id}/authorizations/${world.application.id}`)).status).toBe(204);
    await client.app.webhooks.settled();
    expect(endpoint.events().length).toBe(before);
    expect((await client.delete(`/sandbox/users/1/authorizations/${world.application.id}`)).body.code).toBe(10013);
    expect((await client.delete(`/sandbox/users/${carol.id}/authorizations/1`)).body.code).toBe(10002);
    expect((await client.delete(`/sandbox/users/${carol.id}/authorizations/nope`)).body.code).toBe(50035);
  });
});

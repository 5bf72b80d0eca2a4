// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld } from '../app-harness';
import { connectSession } from '../presence-fixtures';

async function setup(scopes = 'identify guilds guilds.members.read') {
  const client = await createTestClient();
  const world = await createWorld(client, scopes);
  const created = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  return { client, ...world, guild: created.guild, text: created.channels.find((c: { type: number }) => c.type === 0) };
}

describe('GET /sandbox/users/{user_id}', () => {
  it('answers {user}; an unknown user is 404 (10013) and a malformed id 400 (50035)', async () => {
    const { client, alice } = await setup();
    expect((await client.get(`/sandbox/users/${alice.id}`)).body).toEqual({
      user: expect.objectContaining({ id: alice.id, username: 'alice' }),
    });
    expect((await client.get('/sandbox/users/123456789')).body).toEqual({ code: 10013, message: 'Unknown User' });
    expect((await client.get('/sandbox/users/nope')).status).toBe(400);
  });
});

describe('the RPC host routes (/api/v10/rpc)', () => {
  it('GET /rpc/session answers the token session with its user whatever the scopes', async () => {
    const { client, alice, application } = await setup('rpc.activities.write');
    const token = (
      await client.post('/sandbox/tokens', {
        application_id: application.id,
        user_id: alice.id,
        scopes: 'rpc.activities.write',
      })
    ).body.access_token;
    const res = await client.get('/api/v10/rpc/session', `Bearer ${token}`);
    expect(res.body).toEqual({
      application: { id: application.id, name: 'Game', description: '', icon: null },
      user: expect.objectContaining({ id: alice.id, public_flags: 0 }),
      scopes: ['rpc.activities.write'],
      expires: expect.any(String),
      effective_scopes: ['rpc.activities.write'],
    });
  });

  it('are for user tokens only: no token is 401, a bot token 403', async () => {
    const { client, botAuth } = await setup();
    expect((await client.get('/api/v10/rpc/session')).status).toBe(401);
    expect((await client.get('/api/v10/rpc/session', botAuth)).status).toBe(403);
  });

  it('a channel needs guilds, membership and VIEW_CHANNEL; permissions need guilds.members.read', async () => {
    const { client, aliceAuth, bobAuth, text, guild } = await setup();
    expect((await client.get(`/api/v10/rpc/channels/${text.id}`, aliceAuth)).body).toMatchObject({
      id: text.id,
      guild_id: guild.id,
      voice_states: [],
      messages: [],
    });
    expect((await client.get(`/api/v10/rpc/channels/${text.id}`, bobAuth)).body.code).toBe(50001);
    expect((await client.get('/api/v10/rpc/channels/123', aliceAuth)).body.code).toBe(10003);
    expect((await client.get(`/api/v10/rpc/channels/${text.id}/permissions`, aliceAuth)).body.permissions).toMatch(
      /^\d+$/,
    );
    const narrow = await setup('identify');
    expect((await narrow.client.get(`/api/v10/rpc/channels/${narrow.text.id}`, narrow.aliceAuth)).status).toBe(403);
    expect(
      (await narrow.client.get(`/api/v10/rpc/channels/${narrow.text.id}/permissions`, narrow.aliceAuth)).status,
    ).toBe(403);
  });

  it('GET /rpc/guilds/{id}/status counts online members (a connected gateway session, not an activity alone)', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, 'guilds rpc.activities.write');
    const guild = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body.guild;
    expect((await client.get(`/api/v10/rpc/guilds/${guild.id}/status`, world.aliceAuth)).body).toEqual({
      guild: { id: guild.id, name: 'Guild', icon_url: null },
      online: 0,
    });
    await client.put('/api/v10/users/@me/activities', { activity: { type: 0 } }, world.aliceAuth);
    expect((await client.get(`/api/v10/rpc/guilds/${guild.id}/status`, world.aliceAuth)).body.online).toBe(0);
    await connectSession(client.app.ctx, world.alice.id);
    expect((await client.get(`/api/v10/rpc/guilds/${guild.id}/status`, world.aliceAuth)).body.online).toBe(1);
    expect((await client.get(`/api/v10/rpc/guilds/${guild.id}/status`, world.bobAuth)).body.code).toBe(50001);
  });
});

describe('GET /rpc/lobbies/{lobby_id}: a lobby belongs to one application', () => {
  it("answers a member's lobby of the token's own application, and 50001 for another application's lobby, as for an unknown one", async () => {
    const client = await createTestClient();
    const world = await createWorld(client, 'openid sdk.social_layer');
    const lobby = (await client.post('/api/v10/lobbies', { members: [{ id: world.alice.id }] }, world.botAuth)).body;
    expect((await client.get(`/api/v10/rpc/lobbies/${lobby.id}`, world.aliceAuth)).body).toEqual({ id: lobby.id });

    // Alice is a member, but her token is another application's.
    const other = (await client.post('/sandbox/applications', { name: 'Other', owner_id: world.alice.id })).body;
    const otherToken = (
      await client.post('/sandbox/tokens', {
        application_id: other.application.id,
        user_id: world.alice.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body.access_token;
    const crossed = await client.get(`/api/v10/rpc/lobbies/${lobby.id}`, `Bearer ${otherToken}`);
    const unknown = await client.get('/api/v10/rpc/lobbies/123456789012345678', `Bearer ${otherToken}`);
    expect([crossed.status, crossed.body.code]).toEqual([403, 50001]);
    expect([unknown.status, unknown.body]).toEqual([crossed.status, crossed.body]);
    // A member's own application still reads it; a non-member does not.
    expect((await client.get(`/api/v10/rpc/lobbies/${lobby.id}`, world.bobAuth)).body.code).toBe(50001);
  });
});

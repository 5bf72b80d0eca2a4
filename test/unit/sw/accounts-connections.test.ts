// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld } from '../app-harness';

const STUDIO_HIDDEN = '2026-07-10T00:00:00.000Z';
const NETWORK_HIDDEN = '2026-09-22T00:00:00.000Z';
const justBefore = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

async function connectionsWorld() {
  const client = await createTestClient();
  const world = await createWorld(client, 'identify connections');
  const add = (body: Record<string, unknown>) => client.post(`/sandbox/users/${world.alice.id}/connections`, body);
  const types = async () => {
    const res = await client.get('/api/v10/users/@me/connections', world.aliceAuth);
    expect(res.status).toBe(200);
    return (res.body as { type: string; name: string }[]).map((c) => `${c.type}:${c.name}`);
  };
  return { client, world, add, types };
}

describe('GET /users/@me/connections', () => {
  it("returns the current user's connections with the connection fields, and needs the connections scope", async () => {
    const { client, world, add } = await connectionsWorld();
    const created = await add({ type: 'steam', name: 'nova', id: '7656119' });
    expect(created.status).toBe(201);
    const res = await client.get('/api/v10/users/@me/connections', world.aliceAuth);
    expect(res.body).toEqual([
      {
        id: '7656119',
        name: 'nova',
        type: 'steam',
        verified: true,
        revoked: false,
        friend_sync: false,
        show_activity: true,
        two_way_link: false,
        visibility: 1,
        integrations: [],
      },
    ]);
    expect((await client.get('/api/v10/users/@me/connections', world.bobAuth)).body).toEqual([]);
    const narrow = (
      await client.post('/sandbox/tokens', {
        application_id: world.application.id,
        user_id: world.alice.id,
        scopes: 'identify',
      })
    ).body;
    expect((await client.get('/api/v10/users/@me/connections', `Bearer ${narrow.access_token}`)).status).toBe(403);
    expect((await client.get('/api/v10/users/@me/connections', world.botAuth)).body.code).toBe(20001);
  });

  it('newly created game-publisher connections (game studio and game network) are not returned', async () => {
    const { client, add, types } = await connectionsWorld();
    await client.put('/sandbox/clock', { now: '2026-01-01T00:00:00.000Z' });
    await add({ type: 'github', name: 'octo' });
    await add({ type: 'game_studio_account', name: 'new-studio' });
    await add({ type: 'game_network_account', name: 'new-network' });
    expect(await types()).toEqual(['github:octo']);
  });

  it('legacy game-studio connections are returned before 2026-07-10 and not from that day (platform clock)', async () => {
    const { client, add, types } = await connectionsWorld();
    await add({ type: 'game_studio_account', name: 'old-studio', legacy: true });
    await client.put('/sandbox/clock', { now: justBefore(STUDIO_HIDDEN) });
    expect(await types()).toEqual(['game_studio_account:old-studio']);
    await client.put('/sandbox/clock', { now: STUDIO_HIDDEN });
    expect(await types()).toEqual([]);
  });

  it('existing game-network connections are returned before 2026-09-22 and not from that day (platform clock)', async () => {
    const { client, add, types } = await connectionsWorld();
    await add({ type: 'game_network_account', name: 'old-network', legacy: true });
    await add({ type: 'twitch', name: 'streamer' });
    // The studio date does not hide network connections.
    await client.put('/sandbox/clock', { now: STUDIO_HIDDEN });
    expect(await types()).toEqual(['game_network_account:old-network', 'twitch:streamer']);
    await client.put('/sandbox/clock', { now: justBefore(NETWORK_HIDDEN) });
    expect(await types()).toEqual(['game_network_account:old-network', 'twitch:streamer']);
    await client.put('/sandbox/clock', { now: NETWORK_HIDDEN });
    expect(await types()).toEqual(['twitch:streamer']);
  });

  it('the sandbox refuses an unknown connection type (50035) or user (10013), and stores nothing', async () => {
    const { client, add } = await connectionsWorld();
    expect((await add({ type: 'myspace', name: 'x' })).body.errors.type).toBeDefined();
    expect(
      (await client.post('/sandbox/users/1234567890123/connections', { type: 'steam', name: 'x' })).body.code,
    ).toBe(10013);
    expect(await client.app.ctx.db.count('connections')).toBe(0);
  });
});

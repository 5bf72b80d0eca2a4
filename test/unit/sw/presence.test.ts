// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readEventsAfter } from '../../../src/store/event-log';
import { createTestClient, createWorld } from '../app-harness';

const SCOPES = 'identify rpc.activities.write';

describe('rich presence: PUT /users/@me/activities (SET_ACTIVITY)', () => {
  it('SET_ACTIVITY accepts Playing (0), Listening (2), Watching (3) and Competing (5)', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, SCOPES);
    for (const type of [0, 2, 3, 5]) {
      const res = await client.put('/api/v10/users/@me/activities', { activity: { type, state: 'In a match' } }, world.aliceAuth);
      expect(res.status).toBe(200);
      expect(res.body.activity).toMatchObject({ type, state: 'In a match', name: 'Game', application_id: world.application.id });
    }
  });

  it('SET_ACTIVITY refuses every other activity type with 50035 naming activity.type, and stores nothing', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, SCOPES);
    for (const type of [1, 4, 6]) {
      const res = await client.put('/api/v10/users/@me/activities', { activity: { type } }, world.aliceAuth);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(50035);
      expect(res.body.errors.activity.type._errors[0].message).toMatch(/Playing \(0\)/);
    }
    expect(await client.app.ctx.db.count('presences')).toBe(0);
  });

  it('keeps the Activity links state_url, details_url, assets.large_url and assets.small_url, and only http(s) ones', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, SCOPES);
    const activity = {
      type: 0,
      state: 'Lobby',
      state_url: 'https://example.com/state',
      details: 'Ranked',
      details_url: 'https://example.com/details',
      status_display_type: 1,
      assets: { large_image: 'map', large_url: 'https://example.com/large', small_image: 'rank', small_url: 'https://example.com/small' },
    };
    const ok = await client.put('/api/v10/users/@me/activities', { activity }, world.aliceAuth);
    expect(ok.body.activity).toMatchObject(activity);
    const bad = await client.put('/api/v10/users/@me/activities', { activity: { ...activity, details_url: 'javascript:alert(1)' } }, world.aliceAuth);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.activity.details_url).toBeDefined();
  });

  it('becomes the user presence and emits PRESENCE_UPDATE per guild and for the user', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, SCOPES);
    const guild = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body.guild;
    const before = client.announcements.length;
    await client.put('/api/v10/users/@me/activities', { activity: { type: 3, details: 'A film' } }, world.aliceAuth);
    expect(client.announcements.length).toBeGreaterThan(before);
    const events = (await readEventsAfter(client.app.ctx.db, 0)).filter((e) => e.type === 'PRESENCE_UPDATE');
    expect(events.map((e) => e.audience)).toEqual([{ guild_id: guild.id, intent: 1 << 8 }, { user_ids: [world.alice.id] }]);
    expect(events[0].data).toMatchObject({ guild_id: guild.id, user: { id: world.alice.id }, status: 'online', activities: [{ type: 3, details: 'A film' }] });
    const read = await client.get('/api/v10/users/@me/activities', world.aliceAuth);
    expect(read.body.activities).toHaveLength(1);
  });

  it('clears the application activity with activity: null', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, SCOPES);
    await client.put('/api/v10/users/@me/activities', { activity: { type: 0 } }, world.aliceAuth);
    const cleared = await client.put('/api/v10/users/@me/activities', { activity: null }, world.aliceAuth);
    expect(cleared.body).toEqual({ activity: null });
    expect((await client.get('/api/v10/users/@me/activities', world.aliceAuth)).body.activities).toEqual([]);
  });

  it('needs rpc.activities.write (or activities.write) and a user token', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, 'identify');
    const denied = await client.put('/api/v10/users/@me/activities', { activity: { type: 0 } }, world.aliceAuth);
    expect(denied.status).toBe(403);
    const bot = await client.put('/api/v10/users/@me/activities', { activity: { type: 0 } }, world.botAuth);
    expect(bot.status).toBe(403);
    expect(await client.app.ctx.db.count('presences')).toBe(0);
  });
});

// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { clearActivity } from '../../../src/platform/presence/presence';
import { readEventsAfter } from '../../../src/store/event-log';
import { createTestClient, createWorld } from '../app-harness';
import { connectSession } from '../presence-fixtures';

const SCOPES = 'identify rpc.activities.write';

describe('rich presence: PUT /users/@me/activities (SET_ACTIVITY)', () => {
  it('SET_ACTIVITY accepts Playing (0), Listening (2), Watching (3) and Competing (5)', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, SCOPES);
    for (const type of [0, 2, 3, 5]) {
      const res = await client.put(
        '/api/v10/users/@me/activities',
        { activity: { type, state: 'In a match' } },
        world.aliceAuth,
      );
      expect(res.status).toBe(200);
      expect(res.body.activity).toMatchObject({
        type,
        state: 'In a match',
        name: 'Game',
        application_id: world.application.id,
      });
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
      assets: {
        large_image: 'map',
        large_url: 'https://example.com/large',
        small_image: 'rank',
        small_url: 'https://example.com/small',
      },
    };
    const ok = await client.put('/api/v10/users/@me/activities', { activity }, world.aliceAuth);
    expect(ok.body.activity).toMatchObject(activity);
    const bad = await client.put(
      '/api/v10/users/@me/activities',
      { activity: { ...activity, details_url: 'javascript:alert(1)' } },
      world.aliceAuth,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.activity.details_url).toBeDefined();
  });

  it('becomes the presence of an online user and emits PRESENCE_UPDATE per guild and for the user', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, SCOPES);
    const guild = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body.guild;
    await connectSession(client.app.ctx, world.alice.id);
    const seq = (await readEventsAfter(client.app.ctx.db, 0)).at(-1)!.seq!;
    const before = client.announcements.length;
    await client.put('/api/v10/users/@me/activities', { activity: { type: 3, details: 'A film' } }, world.aliceAuth);
    expect(client.announcements.length).toBeGreaterThan(before);
    const events = (await readEventsAfter(client.app.ctx.db, seq)).filter((e) => e.type === 'PRESENCE_UPDATE');
    expect(events.map((e) => e.audience)).toEqual([
      { guild_id: guild.id, intent: 1 << 8 },
      { user_ids: [world.alice.id] },
    ]);
    expect(events[0].data).toMatchObject({
      guild_id: guild.id,
      user: { id: world.alice.id },
      status: 'online',
      activities: [{ type: 3, details: 'A film' }],
    });
    const read = await client.get('/api/v10/users/@me/activities', world.aliceAuth);
    expect(read.body.activities).toHaveLength(1);
  });

  it('an offline user shows no activity: it is stored, and shows once a session of theirs connects', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, SCOPES);
    await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id });
    await client.put('/api/v10/users/@me/activities', { activity: { type: 0, state: 'Solo' } }, world.aliceAuth);
    const presenceUpdates = async () =>
      (await readEventsAfter(client.app.ctx.db, 0)).filter((e) => e.type === 'PRESENCE_UPDATE');
    expect(await presenceUpdates()).toEqual([]);
    expect((await client.get('/api/v10/users/@me/activities', world.aliceAuth)).body.activities).toHaveLength(1);
    await connectSession(client.app.ctx, world.alice.id);
    expect((await presenceUpdates())[0].data).toMatchObject({
      status: 'online',
      activities: [{ type: 0, state: 'Solo' }],
    });
  });

  it('clearing an application activity (a stopped activity frame) leaves the others, and is a no-op when there is none', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, SCOPES);
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body.application;
    await client.put('/api/v10/users/@me/activities', { activity: { type: 0 } }, world.aliceAuth);
    const otherToken = (
      await client.post('/sandbox/tokens', { application_id: other.id, user_id: world.alice.id, scopes: SCOPES })
    ).body.access_token;
    await client.put('/api/v10/users/@me/activities', { activity: { type: 2 } }, `Bearer ${otherToken}`);
    expect(await clearActivity(client.app.ctx, world.alice.id, world.application.id)).toBe(true);
    expect(await clearActivity(client.app.ctx, world.alice.id, world.application.id)).toBe(false);
    expect((await client.app.ctx.db.get('presences', world.alice.id))?.activities.map((a) => a.name)).toEqual([
      'Other',
    ]);
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

// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { readEventsAfter } from '../../../src/store/event-log';
import { createTestClient, createWorld } from '../app-harness';
import { connectSession } from '../presence-fixtures';

const SCOPES = 'identify relationships.read rpc.activities.write lobbies.write activities.invites.write';

/** alice and bob in alice's guild (its text and voice channels, and a channel bob cannot see); carol a stranger. */
async function setup(scopes = SCOPES) {
  const client = await createTestClient();
  const world = await createWorld(client, scopes);
  const carol = (await client.post('/sandbox/users', { username: 'carol' })).body.user;
  const { guild, channels } = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bob.id}`, {});
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bot.id}`, {});
  const text = channels.find((c: { type: number }) => c.type === 0);
  const voice = channels.find((c: { type: number }) => c.type === 2);
  const hidden = (
    await client.post(`/sandbox/guilds/${guild.id}/channels`, {
      name: 'staff',
      type: 0,
      permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: String(PERMISSIONS.VIEW_CHANNEL) }],
    })
  ).body.channel;
  const befriend = (a: string, b: string) => client.put(`/sandbox/users/${a}/relationships/${b}`, { type: 1 });
  return { client, world, carol, guild, text, voice, hidden, befriend, appId: world.application.id as string };
}

/** True when no value anywhere in `value` is null (the public SDK's schemas take absent, not null, there). */
function hasNull(value: unknown): boolean {
  if (value === null) return true;
  return typeof value === 'object' && Object.values(value as object).some(hasNull);
}

describe('GET_RELATIONSHIPS (scope relationships.read): the user relationships from the store', () => {
  it('lists friends with their presence and first activity (set fields only, no join secret) and requests without', async () => {
    const { client, world, carol, befriend } = await setup();
    await befriend(world.alice.id, world.bob.id);
    await client.put(`/sandbox/users/${world.alice.id}/relationships/${carol.id}`, { type: 4 });
    await connectSession(client.app.ctx, world.bob.id);
    await client.put(
      '/api/v10/users/@me/activities',
      { activity: { type: 0, state: 'In a match', party: { id: 'p', size: [1, 4] }, secrets: { join: 's3cret' } } },
      world.bobAuth,
    );
    const { relationships } = (await client.get('/api/v10/rpc/relationships', world.aliceAuth)).body;
    const friend = relationships.find((r: any) => r.user.id === world.bob.id);
    expect(friend).toMatchObject({
      type: 1,
      user: { id: world.bob.id, username: 'bob', flags: 0, bot: false },
      presence: {
        status: 'online',
        activity: { name: 'Game', type: 0, state: 'In a match', party: { id: 'p', size: [1, 4] } },
      },
    });
    expect(JSON.stringify(friend)).not.toContain('s3cret');
    expect(hasNull(friend.presence)).toBe(false);
    expect(relationships.find((r: any) => r.user.id === carol.id)).toEqual({
      type: 4,
      user: expect.objectContaining({ id: carol.id }),
    });
  });

  it('without relationships.read the route is refused (50001)', async () => {
    const { client, world } = await setup('identify');
    expect((await client.get('/api/v10/rpc/relationships', world.aliceAuth)).body.code).toBe(50001);
  });
});

describe('GET_USER: a user the client knows, else null', () => {
  it('the user, friends, guild members and lobby members are known; strangers, unknown ids and non-ids are null', async () => {
    const { client, world, carol, befriend } = await setup();
    const get = async (id: string) =>
      (await client.get(`/api/v10/rpc/users/${encodeURIComponent(id)}`, world.bobAuth)).body;
    expect(await get(world.bob.id)).toMatchObject({ id: world.bob.id, username: 'bob', flags: 0, bot: false });
    expect(await get(world.alice.id)).toMatchObject({ id: world.alice.id });
    expect(await get(carol.id)).toBeNull();
    expect(await get('123')).toBeNull();
    expect(await get('not a user')).toBeNull();
    await befriend(world.bob.id, carol.id);
    expect(await get(carol.id)).toMatchObject({ id: carol.id, username: 'carol' });
    const dave = (await client.post('/sandbox/users', { username: 'dave' })).body.user;
    const daveAuth = `Bearer ${
      (await client.post('/sandbox/tokens', { application_id: world.application.id, user_id: dave.id, scopes: SCOPES }))
        .body.access_token
    }`;
    await client.put('/api/v10/lobbies', { secret: 'shared' }, world.bobAuth);
    expect(await get(dave.id)).toBeNull();
    await client.put('/api/v10/lobbies', { secret: 'shared' }, daveAuth);
    expect(await get(dave.id)).toMatchObject({ id: dave.id });
  });
});

describe('share targets, shared moments and shared interactions', () => {
  async function uploaded(client: Awaited<ReturnType<typeof setup>>['client'], auth: string) {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'moment.png');
    return (await client.request('POST', '/api/v10/rpc/image-uploads', { raw: form, token: auth })).body.url as string;
  }

  it("a moment may go to the guild's channels where the user may post files (the activity's first) and to friends", async () => {
    const { client, world, text, voice, hidden, befriend } = await setup();
    await befriend(world.bob.id, world.alice.id);
    const media = await uploaded(client, world.bobAuth);
    const query = new URLSearchParams({ channel_id: voice.id, purpose: 'moment', media_url: media });
    const targets = (await client.get(`/api/v10/rpc/share-targets?${query}`, world.bobAuth)).body;
    expect(targets.channels.map((c: { id: string }) => c.id)).toEqual([voice.id, text.id]);
    expect(targets.channels.map((c: { id: string }) => c.id)).not.toContain(hidden.id);
    expect(targets.friends.map((f: { id: string }) => f.id)).toEqual([world.alice.id]);
    query.set('media_url', 'https://example.com/cat.png');
    const refused = await client.get(`/api/v10/rpc/share-targets?${query}`, world.bobAuth);
    expect(refused.body.errors.media_url._errors[0].message).toContain("platform's CDN");
  });

  it('a shared moment is posted in the channel as the user, via the application, with the image attached; to a friend as a direct message', async () => {
    const { client, world, text, befriend, appId } = await setup();
    await befriend(world.bob.id, world.alice.id);
    const media = await uploaded(client, world.bobAuth);
    const posted = await client.post(
      '/api/v10/rpc/shared-moments',
      { media_url: media, channel_id: text.id },
      world.bobAuth,
    );
    expect(posted.status).toBe(201);
    expect(posted.body.message).toMatchObject({
      channel_id: text.id,
      author: { id: world.bob.id },
      application_id: appId,
      attachments: [expect.objectContaining({ filename: 'moment.png', content_type: 'image/png', size: 3 })],
    });
    const file = await client.app.fetch(new Request(posted.body.message.attachments[0].url));
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    const dm = await client.post(
      '/api/v10/rpc/shared-moments',
      { media_url: media, user_id: world.alice.id },
      world.bobAuth,
    );
    expect(dm.body.message).toMatchObject({ content: media, recipient_id: world.alice.id });
    const before = await client.app.ctx.db.count('channel_messages');
    const bad = await client.post(
      '/api/v10/rpc/shared-moments',
      { media_url: 'https://example.com/x.png', channel_id: text.id },
      world.bobAuth,
    );
    expect(bad.body.code).toBe(50035);
    expect(await client.app.ctx.db.count('channel_messages')).toBe(before);
  });

  it("a shared interaction runs the application's chat command as the user in the chosen channel, option values typed", async () => {
    const { client, world, text, voice } = await setup();
    await client.post(
      `/api/v10/applications/${world.application.id}/commands`,
      { name: 'score', description: 'Share a score', options: [{ type: 4, name: 'points', description: 'Points' }] },
      world.botAuth,
    );
    const query = new URLSearchParams({ channel_id: voice.id, purpose: 'interaction', command: 'nope' });
    expect((await client.get(`/api/v10/rpc/share-targets?${query}`, world.bobAuth)).body.errors.command).toBeDefined();
    query.set('command', 'score');
    expect(
      (await client.get(`/api/v10/rpc/share-targets?${query}`, world.bobAuth)).body.channels.length,
    ).toBeGreaterThan(0);
    const shared = await client.post(
      '/api/v10/rpc/shared-interactions',
      { channel_id: text.id, command: 'score', options: [{ name: 'points', value: '42' }] },
      world.bobAuth,
    );
    expect(shared.status).toBe(201);
    const interaction = await client.app.ctx.db.get('interactions', shared.body.interaction_id);
    expect(interaction).toMatchObject({ user_id: world.bob.id, channel_id: text.id, type: 2 });
    expect(JSON.stringify(interaction)).toContain('"value":42');
  });
});

describe('activity invites (INVITE_USER_EMBEDDED) and accepting them (ACTIVITY_JOIN)', () => {
  it('an invite to the activity channel goes to the invitee as a direct message; accepting it joins them with the inviter join secret', async () => {
    const { client, world, carol, voice, befriend, appId } = await setup();
    await befriend(world.alice.id, world.bob.id);
    await connectSession(client.app.ctx, world.alice.id);
    await client.put(
      '/api/v10/users/@me/activities',
      { activity: { type: 0, secrets: { join: 'room-9' } } },
      world.aliceAuth,
    );
    const sent = await client.post(
      '/api/v10/rpc/activity-invites',
      { user_id: world.bob.id, channel_id: voice.id, content: 'Come play' },
      world.aliceAuth,
    );
    expect(sent.status).toBe(201);
    expect(sent.body.message.content).toBe(`Come play\nhttps://discord.gg/${sent.body.code}`);
    const invite = await client.app.ctx.db.get('invites', sent.body.code);
    expect(invite).toMatchObject({
      target_application_id: appId,
      target_user_ids: [world.bob.id],
      join_secret: 'room-9',
    });
    // Only the invitee may accept it.
    expect((await client.post(`/sandbox/invites/${sent.body.code}/accept`, { user_id: carol.id })).body.code).toBe(
      10006,
    );
    const accepted = await client.post(`/sandbox/invites/${sent.body.code}/accept`, { user_id: world.bob.id });
    expect(accepted.body.invite).toMatchObject({ target_type: 2, target_application: { id: appId } });
    expect(
      (await client.post('/api/v10/rpc/activity-joins/claim', undefined, world.bobAuth)).body.activity_join,
    ).toEqual({ application_id: appId, secret: 'room-9' });
    const joins = (await readEventsAfter(client.app.ctx.db, 0)).filter((e) => e.type === 'ACTIVITY_JOIN');
    expect(joins.map((e) => e.audience)).toEqual([{ user_ids: [world.bob.id], application_id: appId, client: true }]);
  });

  it('someone the user may not message (never played, not a friend) is 50007, and no invite is stored', async () => {
    const { client, world, carol, voice } = await setup();
    const refused = await client.post(
      '/api/v10/rpc/activity-invites',
      { user_id: carol.id, channel_id: voice.id },
      world.aliceAuth,
    );
    expect(refused.body.code).toBe(50007);
    expect(await client.app.ctx.db.count('invites')).toBe(0);
  });

  it('needs activities.invites.write or dm_channels.messages.write', async () => {
    const { client, world, voice } = await setup('identify');
    const refused = await client.post(
      '/api/v10/rpc/activity-invites',
      { user_id: world.bob.id, channel_id: voice.id },
      world.aliceAuth,
    );
    expect(refused.body).toMatchObject({ code: 50001, message: expect.stringContaining('activities.invites.write') });
  });
});

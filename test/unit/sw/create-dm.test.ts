// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient, createWorld, type TestClient } from '../app-harness';
import { expectError, expectInvalidField, loggedEvents } from './lobby-fixtures';

const API = '/api/v10';
const CREATE_DM = `${API}/users/@me/channels`;

/** A world whose bot shares a guild with bob (not with carol); bob's token reads his DM channels. */
async function setup(client: TestClient) {
  const world = await createWorld(client, 'openid sdk.social_layer dm_channels.read dm_channels.messages.write');
  const carol = (await client.post('/sandbox/users', { username: 'carol' })).body.user;
  const { guild } = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bot.id}`, {});
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bob.id}`, {});
  return { world, carol, guild };
}

/** What a failed request must leave as it was. */
async function stored(client: TestClient) {
  return {
    channels: (await client.db.getAll('dm_channels')).length,
    messages: (await client.db.getAll('dm_messages')).length,
    events: (await client.db.getAll('events')).length,
  };
}

describe('Create DM (POST /users/@me/channels {recipient_id}: public docs, a bot opens a DM)', () => {
  it('answers the DM channel object (type 1, the user as recipient) and the same channel for the same pair', async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const first = await client.post(CREATE_DM, { recipient_id: world.bob.id }, world.botAuth);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 1,
      last_message_id: null,
      flags: 0,
      recipients: [expect.objectContaining({ id: world.bob.id, username: 'bob' })],
    });
    const again = await client.post(CREATE_DM, { recipient_id: world.bob.id }, world.botAuth);
    expect(again.body.id).toBe(first.body.id);
    expect(await client.db.getAll('dm_channels')).toHaveLength(1);
  });

  it('the channel is stored before the answer and sends no event (CHANNEL_CREATE is for guild channels)', async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const before = (await loggedEvents(client)).length;
    const dm = await client.post(CREATE_DM, { recipient_id: world.bob.id }, world.botAuth);
    expect(await client.db.get('dm_channels', dm.body.id)).toMatchObject({ recipient_ids: expect.any(Array) });
    expect((await loggedEvents(client)).length).toBe(before);
  });

  it('bad input is 400 50035 naming recipient_id, and stores nothing', async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const before = await stored(client);
    expectInvalidField(await client.post(CREATE_DM, {}, world.botAuth), 'recipient_id');
    expectInvalidField(await client.post(CREATE_DM, { recipient_id: 'bob' }, world.botAuth), 'recipient_id');
    expectInvalidField(await client.post(CREATE_DM, [world.bob.id], world.botAuth), '_root');
    expect(await stored(client)).toEqual(before);
  });

  it('an unknown user is 404 10013; itself or another bot is 403 50007; nothing is stored', async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body;
    const before = await stored(client);
    expectError(await client.post(CREATE_DM, { recipient_id: '123456789012345678' }, world.botAuth), 404, 10013);
    expectError(await client.post(CREATE_DM, { recipient_id: world.bot.id }, world.botAuth), 403, 50007);
    expectError(await client.post(CREATE_DM, { recipient_id: other.bot.id }, world.botAuth), 403, 50007);
    expect(await stored(client)).toEqual(before);
  });

  it("is a bot route: no token 401, a user's token 403 20002", async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    expect((await client.post(CREATE_DM, { recipient_id: world.bob.id })).status).toBe(401);
    expectError(await client.post(CREATE_DM, { recipient_id: world.alice.id }, world.bobAuth), 403, 20002);
  });
});

describe('POST /channels/{dm.id}/messages from a bot (user.send): kept in the DM, MESSAGE_CREATE to both', () => {
  it('answers the message object, stores it in the pair channel, and the user lists the channel', async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const dm = (await client.post(CREATE_DM, { recipient_id: world.bob.id }, world.botAuth)).body;
    const sent = await client.post(`${API}/channels/${dm.id}/messages`, { content: 'hi', nonce: '42' }, world.botAuth);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      type: 0,
      channel_id: dm.id,
      content: 'hi',
      author: { id: world.bot.id, bot: true },
      tts: false,
      mentions: [],
      attachments: [],
      embeds: [],
      pinned: false,
      nonce: '42',
    });
    expect(await client.db.getAll('dm_messages')).toEqual([
      expect.objectContaining({ id: sent.body.id, channel_id: dm.id, author_id: world.bot.id, content: 'hi' }),
    ]);
    const channels = await client.get(`${API}/users/@me/channels`, world.bobAuth);
    expect(channels.body).toEqual([
      expect.objectContaining({
        id: dm.id,
        last_message_id: sent.body.id,
        recipients: [expect.objectContaining({ id: world.bot.id })],
      }),
    ]);
  });

  it('logs MESSAGE_CREATE for both users, a bot only with DIRECT_MESSAGES (audience bot_intent)', async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const dm = (await client.post(CREATE_DM, { recipient_id: world.bob.id }, world.botAuth)).body;
    await client.post(`${API}/channels/${dm.id}/messages`, { content: 'hi' }, world.botAuth);
    const [event] = await loggedEvents(client, 'MESSAGE_CREATE');
    expect(event.audience).toEqual({
      user_ids: [world.bot.id, world.bob.id],
      bot_intent: INTENTS.DIRECT_MESSAGES,
    });
    expect(event.data).toMatchObject({ channel_id: dm.id, content: 'hi' });
  });

  it('a bot that shares no guild with the user is 403 50007, and nothing is stored', async () => {
    const client = await createTestClient();
    const { world, carol } = await setup(client);
    const dm = (await client.post(CREATE_DM, { recipient_id: carol.id }, world.botAuth)).body;
    const before = await stored(client);
    expectError(await client.post(`${API}/channels/${dm.id}/messages`, { content: 'hi' }, world.botAuth), 403, 50007);
    expect(await stored(client)).toEqual(before);
  });

  it('a caller who is not one of the two is 404 10003; empty content 400 50006; an embed 400 50035 naming embeds', async () => {
    const client = await createTestClient();
    const { world, guild } = await setup(client);
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body;
    await client.put(`/sandbox/guilds/${guild.id}/members/${other.bot.id}`, {});
    const dm = (await client.post(CREATE_DM, { recipient_id: world.bob.id }, world.botAuth)).body;
    const before = await stored(client);
    const path = `${API}/channels/${dm.id}/messages`;
    expectError(await client.post(path, { content: 'hi' }, `Bot ${other.bot_token}`), 404, 10003);
    expectError(await client.post(path, { content: '' }, world.botAuth), 400, 50006);
    expectInvalidField(await client.post(path, { content: 'hi', embeds: [{ title: 'x' }] }, world.botAuth), 'embeds');
    expect(await stored(client)).toEqual(before);
  });
});

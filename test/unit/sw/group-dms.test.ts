// @vitest-environment node
/**
 * Group DMs as the platform's public API has them for a bot: Create Group DM (`POST
 * /users/@me/channels` with users' `gdm.join` tokens), Add / Remove Recipient, the channel's
 * GET / PATCH / DELETE, its messages, the events each logs, and the limits (10 members, 10
 * active group DMs per application).
 */
import { describe, expect, it } from 'vitest';
import { CAPABILITY_CHANNEL_OBFUSCATION } from '../../../src/gateway/protocol';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient, createWorld, itInProcess, type TestClient } from '../app-harness';
import { createGatewayHarness } from '../gateway/gateway-harness';
import { expectError, expectInvalidField, loggedEvents } from './lobby-fixtures';

const API = '/api/v10';
const CHANNELS = `${API}/users/@me/channels`;
const SCOPES =
  'openid guilds gdm.join dm_channels.read dm_channels.messages.read dm_channels.messages.write messages.read messages.write';
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Alice and bob with tokens for the game (gdm.join among their scopes), carol with one too, and the game's bot. */
async function setup() {
  const c = await createTestClient();
  const world = await createWorld(c, SCOPES);
  const carol = (await c.post('/sandbox/users', { username: 'carol' })).body.user;
  const token = async (userId: string, scopes = SCOPES) =>
    (await c.post('/sandbox/tokens', { application_id: world.application.id, user_id: userId, scopes })).body
      .access_token as string;
  const carolToken = await token(carol.id);
  return {
    client: c,
    ...world,
    carol,
    token,
    aliceToken: world.aliceTokens.access_token as string,
    bobToken: world.bobTokens.access_token as string,
    carolToken,
    carolAuth: `Bearer ${carolToken}`,
  };
}

type World = Awaited<ReturnType<typeof setup>>;

async function createGroup(w: World, tokens = [w.aliceToken, w.bobToken], nicks?: Record<string, string>) {
  const reply = await w.client.post(CHANNELS, { access_tokens: tokens, ...(nicks ? { nicks } : {}) }, w.botAuth);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

/** What a refused request must leave as it was. */
async function stored(client: TestClient) {
  return {
    channels: await client.db.getAll('group_dm_channels'),
    messages: (await client.db.getAll('group_dm_messages')).length,
    events: (await client.db.getAll('events')).length,
  };
}

const ids = (users: { id: string }[]) => users.map((u) => u.id).sort();

describe('Create Group DM (POST /users/@me/channels {access_tokens, nicks})', () => {
  it('answers a GROUP_DM channel (type 3) owned by the bot, with the application id, the users as recipients', async () => {
    const w = await setup();
    const channel = await createGroup(w, [w.aliceToken, w.bobToken], { [w.alice.id]: 'Al' });
    expect(channel).toMatchObject({
      type: 3,
      owner_id: w.bot.id,
      application_id: w.application.id,
      name: null,
      icon: null,
      last_message_id: null,
      flags: 0,
    });
    expect(ids(channel.recipients)).toEqual([w.alice.id, w.bob.id].sort());
    expect(await w.client.db.get('group_dm_channels', channel.id)).toMatchObject({
      member_ids: [w.bot.id, w.alice.id, w.bob.id],
      nicks: { [w.alice.id]: 'Al' },
    });
  });

  it('logs CHANNEL_CREATE to each member, as that member sees it (recipients: the others)', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const events = await loggedEvents(w.client, 'CHANNEL_CREATE');
    expect(events.map((e) => e.audience)).toEqual([
      { user_ids: [w.bot.id] },
      { user_ids: [w.alice.id] },
      { user_ids: [w.bob.id] },
    ]);
    const aliceView = events[1].data as { id: string; recipients: { id: string }[] };
    expect(aliceView.id).toBe(channel.id);
    expect(ids(aliceView.recipients)).toEqual([w.bot.id, w.bob.id].sort());
  });

  it('a token without gdm.join, of another application, or unknown is 403 50025, and nothing is stored', async () => {
    const w = await setup();
    const other = (await w.client.post('/sandbox/applications', { name: 'Other' })).body;
    const foreign = (
      await w.client.post('/sandbox/tokens', {
        application_id: other.application.id,
        user_id: w.carol.id,
        scopes: SCOPES,
      })
    ).body.access_token;
    const before = await stored(w.client);
    for (const bad of [await w.token(w.carol.id, 'openid guilds'), foreign, 'not-a-token'])
      expectError(await w.client.post(CHANNELS, { access_tokens: [w.aliceToken, bad] }, w.botAuth), 403, 50025);
    expect(await stored(w.client)).toEqual(before);
  });

  it('a group DM holds at most 10 members, its creator included: 10 tokens are 400 30004', async () => {
    const w = await setup();
    const users = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) => (await w.client.post('/sandbox/users', { username: `u${i}` })).body.user,
      ),
    );
    const tokens = await Promise.all(users.map((u) => w.token(u.id)));
    const before = await stored(w.client);
    expectError(await w.client.post(CHANNELS, { access_tokens: tokens }, w.botAuth), 400, 30004);
    expect(await stored(w.client)).toEqual(before);
    const full = await createGroup(w, tokens.slice(0, 9));
    expect(full.recipients).toHaveLength(9);
  });

  it('an application has at most 10 active group DMs: the 11th is 400 30011; deleting one frees its place', async () => {
    const w = await setup();
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await createGroup(w, [w.aliceToken]));
    const before = await stored(w.client);
    expectError(await w.client.post(CHANNELS, { access_tokens: [w.aliceToken] }, w.botAuth), 400, 30011);
    expect(await stored(w.client)).toEqual(before);
    expect((await w.client.delete(`${API}/channels/${made[0].id}`, w.botAuth)).status).toBe(200);
    await createGroup(w, [w.aliceToken]);
  });

  it('bad bodies are 400 50035 naming the field (neither or both of recipient_id and access_tokens, empty tokens, a long nick)', async () => {
    const w = await setup();
    const before = await stored(w.client);
    expectInvalidField(await w.client.post(CHANNELS, {}, w.botAuth), 'recipient_id');
    expectInvalidField(
      await w.client.post(CHANNELS, { recipient_id: w.alice.id, access_tokens: [w.aliceToken] }, w.botAuth),
      'recipient_id',
    );
    expectInvalidField(await w.client.post(CHANNELS, { access_tokens: [] }, w.botAuth), 'access_tokens');
    expectInvalidField(await w.client.post(CHANNELS, { access_tokens: [1] }, w.botAuth), 'access_tokens.0');
    expectInvalidField(
      await w.client.post(
        CHANNELS,
        { access_tokens: [w.aliceToken], nicks: { [w.alice.id]: 'x'.repeat(33) } },
        w.botAuth,
      ),
      `nicks.${w.alice.id}`,
    );
    expect(await stored(w.client)).toEqual(before);
  });

  it("is a bot route: a user's token is 403 20002", async () => {
    const w = await setup();
    expectError(await w.client.post(CHANNELS, { access_tokens: [w.bobToken] }, w.aliceAuth), 403, 20002);
  });
});

describe('Group DM Add / Remove Recipient (PUT / DELETE /channels/{id}/recipients/{user.id})', () => {
  it('the owner adds a user with their gdm.join token: 204, CHANNEL_RECIPIENT_ADD (with the nick) to the others, CHANNEL_CREATE to them', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const path = `${API}/channels/${channel.id}/recipients/${w.carol.id}`;
    const added = await w.client.put(path, { access_token: w.carolToken, nick: 'Caz' }, w.botAuth);
    expect(added.status, JSON.stringify(added.body)).toBe(204);
    const [add] = await loggedEvents(w.client, 'CHANNEL_RECIPIENT_ADD');
    expect(add.audience).toEqual({ user_ids: [w.bot.id, w.alice.id, w.bob.id] });
    expect(add.data).toMatchObject({ channel_id: channel.id, user: { id: w.carol.id }, nick: 'Caz' });
    const creates = await loggedEvents(w.client, 'CHANNEL_CREATE');
    expect(creates.at(-1)!.audience).toEqual({ user_ids: [w.carol.id] });
    expect(ids((creates.at(-1)!.data as any).recipients)).toEqual([w.bot.id, w.alice.id, w.bob.id].sort());
    // Adding a member again changes nothing.
    const before = await stored(w.client);
    expect((await w.client.put(path, { access_token: w.carolToken }, w.botAuth)).status).toBe(204);
    expect(await stored(w.client)).toEqual(before);
  });

  it("another user's token for user_id, or one without gdm.join, is 403 50025; a full group DM is 400 30004", async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const path = `${API}/channels/${channel.id}/recipients/${w.carol.id}`;
    const before = await stored(w.client);
    expectError(await w.client.put(path, { access_token: w.aliceToken }, w.botAuth), 403, 50025);
    expectError(await w.client.put(path, { access_token: await w.token(w.carol.id, 'openid') }, w.botAuth), 403, 50025);
    expect(await stored(w.client)).toEqual(before);
    const others = await Promise.all(
      Array.from(
        { length: 7 },
        async (_, i) => (await w.client.post('/sandbox/users', { username: `m${i}` })).body.user,
      ),
    );
    for (const user of others)
      expect(
        (
          await w.client.put(
            `${API}/channels/${channel.id}/recipients/${user.id}`,
            { access_token: await w.token(user.id) },
            w.botAuth,
          )
        ).status,
      ).toBe(204);
    const full = await stored(w.client);
    expect(full.channels[0].member_ids).toHaveLength(10);
    expectError(await w.client.put(path, { access_token: w.carolToken }, w.botAuth), 400, 30004);
    expect(await stored(w.client)).toEqual(full);
  });

  it("only the owner manages recipients: another application's bot is 404 10003; a user's token 403 20002", async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const other = (await w.client.post('/sandbox/applications', { name: 'Other' })).body;
    const path = `${API}/channels/${channel.id}/recipients/${w.bob.id}`;
    expectError(await w.client.delete(path, `Bot ${other.bot_token}`), 404, 10003);
    expectError(await w.client.delete(path, w.aliceAuth), 403, 20002);
  });

  it('removing: 204, CHANNEL_RECIPIENT_REMOVE to the rest, CHANNEL_DELETE to the removed user, who no longer sees it; the owner cannot be removed (50033)', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const path = `${API}/channels/${channel.id}/recipients/${w.bob.id}`;
    expect((await w.client.delete(path, w.botAuth)).status).toBe(204);
    const [remove] = await loggedEvents(w.client, 'CHANNEL_RECIPIENT_REMOVE');
    expect(remove.audience).toEqual({ user_ids: [w.bot.id, w.alice.id] });
    expect(remove.data).toMatchObject({ channel_id: channel.id, user: { id: w.bob.id } });
    const [deleted] = await loggedEvents(w.client, 'CHANNEL_DELETE');
    expect(deleted.audience).toEqual({ user_ids: [w.bob.id] });
    expectError(await w.client.get(`${API}/channels/${channel.id}`, w.bobAuth), 404, 10003);
    // Removing a user who is not a member changes nothing.
    const before = await stored(w.client);
    expect((await w.client.delete(path, w.botAuth)).status).toBe(204);
    expect(await stored(w.client)).toEqual(before);
    expectError(await w.client.delete(`${API}/channels/${channel.id}/recipients/${w.bot.id}`, w.botAuth), 400, 50033);
  });
});

describe("a group DM's channel routes: GET, PATCH (name, icon), DELETE", () => {
  it('a member reads it (recipients: the others); anyone else is 404 10003; the user lists it in GET /users/@me/channels', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const seen = await w.client.get(`${API}/channels/${channel.id}`, w.aliceAuth);
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body).toMatchObject({ id: channel.id, type: 3, owner_id: w.bot.id, application_id: w.application.id });
    expect(ids(seen.body.recipients)).toEqual([w.bot.id, w.bob.id].sort());
    expect((await w.client.get(`${API}/channels/${channel.id}`, w.botAuth)).body.recipients).toHaveLength(2);
    expectError(await w.client.get(`${API}/channels/${channel.id}`, w.carolAuth), 404, 10003);
    const listed = await w.client.get(CHANNELS, w.aliceAuth);
    expect(listed.body).toEqual([expect.objectContaining({ id: channel.id, type: 3 })]);
  });

  it('the owner renames it and sets its icon: CHANNEL_UPDATE to every member; null clears both', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const path = `${API}/channels/${channel.id}`;
    const renamed = await w.client.patch(path, { name: 'Party', icon: PNG }, w.botAuth);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Party', icon: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const updates = await loggedEvents(w.client, 'CHANNEL_UPDATE');
    expect(updates.map((e) => e.audience)).toEqual([
      { user_ids: [w.bot.id] },
      { user_ids: [w.alice.id] },
      { user_ids: [w.bob.id] },
    ]);
    expect(updates[1].data).toMatchObject({ name: 'Party' });
    expect((await w.client.patch(path, { name: null, icon: null }, w.botAuth)).body).toMatchObject({
      name: null,
      icon: null,
    });
  });

  itInProcess("the CDN answers the uploaded icon at the group DM's channel-icons URL", async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const { icon } = (await w.client.patch(`${API}/channels/${channel.id}`, { icon: PNG }, w.botAuth)).body;
    const response = await w.client.app.cdn(
      new Request(`https://cdn.discordapp.com/channel-icons/${channel.id}/${icon}.png`),
    );
    expect(response.headers.get('Content-Type')).toBe('image/png');
    const uploaded = Uint8Array.from(atob(PNG.split(',')[1]), (c) => c.charCodeAt(0));
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([...uploaded]);
  });

  it('bad edits are 400 50035 naming the field (an empty or 101-character name, an icon that is no image), nothing changed', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const path = `${API}/channels/${channel.id}`;
    const before = await stored(w.client);
    expectInvalidField(await w.client.patch(path, { name: '' }, w.botAuth), 'name');
    expectInvalidField(await w.client.patch(path, { name: 'x'.repeat(101) }, w.botAuth), 'name');
    expectInvalidField(await w.client.patch(path, { icon: 'not an image' }, w.botAuth), 'icon');
    expect(await stored(w.client)).toEqual(before);
  });

  it('the owner deletes it: the channel answered, CHANNEL_DELETE to every member, its messages gone', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    await w.client.post(`${API}/channels/${channel.id}/messages`, { content: 'hi' }, w.aliceAuth);
    const deleted = await w.client.delete(`${API}/channels/${channel.id}`, w.botAuth);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({ id: channel.id, type: 3 });
    const events = await loggedEvents(w.client, 'CHANNEL_DELETE');
    expect(events.map((e) => e.audience.user_ids![0]).sort()).toEqual([w.bot.id, w.alice.id, w.bob.id].sort());
    expect(await w.client.db.getAll('group_dm_channels')).toEqual([]);
    expect(await w.client.db.getAll('group_dm_messages')).toEqual([]);
    expectError(await w.client.get(`${API}/channels/${channel.id}`, w.aliceAuth), 404, 10003);
  });
});

describe("a group DM's messages (POST / GET /channels/{id}/messages)", () => {
  it('a member posts: the message object, MESSAGE_CREATE to every member, a bot only with DIRECT_MESSAGES', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const sent = await w.client.post(
      `${API}/channels/${channel.id}/messages`,
      { content: 'gg', nonce: '7' },
      w.aliceAuth,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ channel_id: channel.id, content: 'gg', author: { id: w.alice.id }, nonce: '7' });
    const [event] = await loggedEvents(w.client, 'MESSAGE_CREATE');
    expect(event.audience).toEqual({
      user_ids: [w.bot.id, w.alice.id, w.bob.id],
      bot_intent: INTENTS.DIRECT_MESSAGES,
    });
    expect((await w.client.get(`${API}/channels/${channel.id}`, w.bobAuth)).body.last_message_id).toBe(sent.body.id);
  });

  it('typing: 204, TYPING_START to the other members (a bot with DIRECT_MESSAGE_TYPING); outsiders are 404 10003', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const path = `${API}/channels/${channel.id}/typing`;
    expect((await w.client.post(path, undefined, w.aliceAuth)).status).toBe(204);
    const [typing] = await loggedEvents(w.client, 'TYPING_START');
    expect(typing.audience).toEqual({
      user_ids: [w.bot.id, w.bob.id],
      bot_intent: INTENTS.DIRECT_MESSAGE_TYPING,
    });
    expect(typing.data).toMatchObject({ channel_id: channel.id, user_id: w.alice.id });
    expect(typing.data).not.toHaveProperty('guild_id');
    expectError(await w.client.post(path, undefined, w.carolAuth), 404, 10003);
  });

  it('history is newest first, by limit, before and after; outsiders are 404 10003', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const path = `${API}/channels/${channel.id}/messages`;
    const sent: string[] = [];
    for (const [i, auth] of [w.aliceAuth, w.botAuth, w.bobAuth, w.aliceAuth].entries())
      sent.push((await w.client.post(path, { content: `m${i}` }, auth)).body.id);
    const contents = (reply: { body: { content: string }[] }) => reply.body.map((m) => m.content);
    expect(contents(await w.client.get(path, w.bobAuth))).toEqual(['m3', 'm2', 'm1', 'm0']);
    expect(contents(await w.client.get(`${path}?limit=2`, w.botAuth))).toEqual(['m3', 'm2']);
    expect(contents(await w.client.get(`${path}?before=${sent[2]}`, w.bobAuth))).toEqual(['m1', 'm0']);
    expect(contents(await w.client.get(`${path}?after=${sent[0]}&limit=2`, w.bobAuth))).toEqual(['m2', 'm1']);
    expectError(await w.client.get(path, w.carolAuth), 404, 10003);
    expectError(await w.client.post(path, { content: 'hi' }, w.carolAuth), 404, 10003);
  });

  it('text only: an embed is 400 50035 naming embeds, empty content 400 50006; a token without dm_channels.messages.write is 403 50001', async () => {
    const w = await setup();
    const channel = await createGroup(w);
    const path = `${API}/channels/${channel.id}/messages`;
    const before = await stored(w.client);
    expectInvalidField(await w.client.post(path, { content: 'x', embeds: [{ title: 't' }] }, w.aliceAuth), 'embeds');
    expectError(await w.client.post(path, { content: ' ' }, w.aliceAuth), 400, 50006);
    const narrow = `Bearer ${await w.token(w.alice.id, 'openid messages.write')}`;
    expectError(await w.client.post(path, { content: 'x' }, narrow), 403, 50001);
    expect(await stored(w.client)).toEqual(before);
  });
});

describe('POST /sandbox/group-dms: the fixture of a group DM the bot made', () => {
  it("makes the application bot's group DM with the users, with a name; an unknown user is 404 10013", async () => {
    const w = await setup();
    const made = await w.client.post('/sandbox/group-dms', {
      application_id: w.application.id,
      user_ids: [w.alice.id, w.bob.id],
      name: 'Squad',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.channel).toMatchObject({ type: 3, owner_id: w.bot.id, name: 'Squad' });
    expect((await w.client.get(`${API}/channels/${made.body.channel.id}`, w.bobAuth)).body.name).toBe('Squad');
    const unknown = await w.client.post('/sandbox/group-dms', {
      application_id: w.application.id,
      user_ids: ['123456789012345678'],
    });
    expectError(unknown, 404, 10013);
  });
});

describe('group DM events on the gateway', () => {
  it('the owner bot hears CHANNEL_CREATE whole (a private channel is never obfuscated) whatever its intents; MESSAGE_CREATE only with DIRECT_MESSAGES', async () => {
    const h = await createGatewayHarness();
    const withDms = await h.identify(h.world.botAuth, {
      intents: INTENTS.DIRECT_MESSAGES,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    const without = await h.identify(h.world.botAuth, { intents: 0, capabilities: CAPABILITY_CHANNEL_OBFUSCATION });
    const made = await h.api.post('/sandbox/group-dms', {
      application_id: h.world.application.id,
      user_ids: [h.world.alice.id, h.world.bob.id],
      name: 'Squad',
    });
    const channel = made.body.channel;
    for (const session of [withDms, without]) {
      const created = await session.waitForDispatch('CHANNEL_CREATE');
      expect(created.d).toMatchObject({ id: channel.id, type: 3, name: 'Squad', owner_id: h.world.bot.id });
      expect(ids(created.d.recipients)).toEqual([h.world.alice.id, h.world.bob.id].sort());
    }
    const sent = await h.api.post(`${API}/channels/${channel.id}/messages`, { content: 'gg' }, h.world.botAuth);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const message = await withDms.waitForDispatch('MESSAGE_CREATE');
    expect(message.d).toMatchObject({ channel_id: channel.id, content: 'gg' });
    await h.pump();
    expect(without.dispatches('MESSAGE_CREATE')).toEqual([]);
  });
});

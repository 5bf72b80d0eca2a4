// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  API,
  expectError,
  expectInvalidField,
  logPosition,
  loggedEvents,
  socialCounts,
  socialWorld,
} from './social-fixtures';

const dms = (userId: string) => `${API}/users/@me/dms/${userId}/messages`;
const CHANNELS = `${API}/users/@me/channels`;

async function eventsAfter(w: Awaited<ReturnType<typeof socialWorld>>, after: number) {
  return (await loggedEvents(w.client)).filter((e) => e.seq! > after);
}

describe('POST /users/@me/dms/{recipient_id}/messages between friends: kept in the DM channel', () => {
  it('answers the message; the first one opens a type 1 channel (CHANNEL_CREATE to each) and MESSAGE_CREATE reaches both users', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    await w.client.put('/sandbox/clock', { now: '2026-06-07T08:09:10.000Z' });
    const after = await logPosition(w.client);
    const reply = await w.client.post(
      dms(w.bob.id),
      { content: 'ready to queue?', metadata: { mode: 'duo' } },
      w.aliceAuth,
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const [channel] = await w.client.app.ctx.db.getAll('dm_channels');
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 0,
      content: 'ready to queue?',
      channel_id: channel.id,
      recipient_id: w.bob.id,
      author: expect.objectContaining({ id: w.alice.id, username: 'alice' }),
      timestamp: '2026-06-07T08:09:10.000Z',
      edited_timestamp: null,
      flags: 0,
      metadata: { mode: 'duo' },
      application_id: w.application.id,
    });
    const events = await eventsAfter(w, after);
    expect(events.map((e) => [e.type, e.audience, e.channels])).toEqual([
      ['CHANNEL_CREATE', { user_ids: [w.alice.id] }, ['gateway']],
      ['CHANNEL_CREATE', { user_ids: [w.bob.id] }, ['gateway']],
      ['MESSAGE_CREATE', { user_ids: [w.alice.id, w.bob.id] }, ['gateway']],
      ['GAME_DIRECT_MESSAGE_CREATE', { application_id: w.application.id }, ['webhook']],
    ]);
    expect(events[0].data).toEqual({
      id: channel.id,
      type: 1,
      last_message_id: null,
      flags: 0,
      recipients: [expect.objectContaining({ id: w.bob.id })],
    });
    expect(events[1].data).toMatchObject({ recipients: [{ id: w.alice.id }] });
    expect(events[2].data).toEqual(reply.body);
    expect(events[3].data).toEqual({ ...reply.body, channel: expect.objectContaining({ id: channel.id, type: 1 }) });
  });

  it('later messages reuse the channel (no CHANNEL_CREATE), either way round; game friends are kept too', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1, w.application.id);
    const first = (await w.client.post(dms(w.bob.id), { content: 'one' }, w.aliceAuth)).body;
    const after = await logPosition(w.client);
    const second = (await w.client.post(dms(w.alice.id), { content: 'two' }, w.bobAuth)).body;
    expect(second.channel_id).toBe(first.channel_id);
    expect((await eventsAfter(w, after)).map((e) => e.type)).toEqual(['MESSAGE_CREATE', 'GAME_DIRECT_MESSAGE_CREATE']);
    expect(await socialCounts(w.client)).toMatchObject({ channels: 1, messages: 2 });
  });
});

describe('POST /users/@me/dms/{recipient_id}/messages between non-friends: ephemeral', () => {
  it("is not kept; each user hears MESSAGE_CREATE in the game with channel_id = the other user's id", async () => {
    const w = await socialWorld();
    const after = await logPosition(w.client);
    const reply = await w.client.post(dms(w.bob.id), { content: 'gg' }, w.aliceAuth);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      content: 'gg',
      channel_id: w.bob.id,
      recipient_id: w.bob.id,
      author: { id: w.alice.id },
    });
    expect(await socialCounts(w.client)).toMatchObject({ channels: 0, messages: 0 });
    const events = await eventsAfter(w, after);
    expect(events.map((e) => [e.type, e.audience, (e.data as any).channel_id])).toEqual([
      ['MESSAGE_CREATE', { user_ids: [w.alice.id], application_id: w.application.id }, w.bob.id],
      ['MESSAGE_CREATE', { user_ids: [w.bob.id], application_id: w.application.id }, w.alice.id],
      ['GAME_DIRECT_MESSAGE_CREATE', { application_id: w.application.id }, w.bob.id],
    ]);
    expect((await w.client.get(dms(w.alice.id), w.bobAuth)).body).toEqual([]);
  });

  it('two provisional accounts are ephemeral even as game friends', async () => {
    const w = await socialWorld();
    const [one, two] = [await w.provisional('p-1'), await w.provisional('p-2')];
    await w.relate(one.user.id, two.user.id, 1, w.application.id);
    expect((await w.client.post(dms(two.user.id), { content: 'hi' }, one.auth)).body.channel_id).toBe(two.user.id);
    expect((await socialCounts(w.client)).messages).toBe(0);
    // One full account among them is enough to keep it.
    await w.relate(w.alice.id, two.user.id, 1, w.application.id);
    expect((await w.client.post(dms(two.user.id), { content: 'hi' }, w.aliceAuth)).body.channel_id).not.toBe(
      two.user.id,
    );
  });

  it('to a user who never played the game is 403 50007, with nothing stored and no event', async () => {
    const w = await socialWorld();
    const before = await socialCounts(w.client);
    expectError(await w.client.post(dms(w.dave.id), { content: 'hello?' }, w.aliceAuth), 403, 50007);
    expect(await socialCounts(w.client)).toEqual(before);
    // As friends it lands in their DM channel: the platform client shows it.
    await w.relate(w.alice.id, w.dave.id, 1);
    expect((await w.client.post(dms(w.dave.id), { content: 'hello?' }, w.aliceAuth)).status).toBe(200);
  });
});

describe('POST /users/@me/dms/{recipient_id}/messages refusals (nothing stored, no event)', () => {
  it('blocked either way, oneself or a bot is 403 50007; an unknown user 404 10013', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    await w.client.put(`${API}/users/@me/relationships/${w.carol.id}`, { type: 2 }, w.aliceAuth);
    const before = await socialCounts(w.client);
    expectError(await w.client.post(dms(w.carol.id), { content: 'x' }, w.aliceAuth), 403, 50007);
    expectError(await w.client.post(dms(w.alice.id), { content: 'x' }, w.carolAuth), 403, 50007);
    expectError(await w.client.post(dms(w.alice.id), { content: 'x' }, w.aliceAuth), 403, 50007);
    expectError(await w.client.post(dms(w.bot.id), { content: 'x' }, w.aliceAuth), 403, 50007);
    expectError(await w.client.post(dms('123456789012345678'), { content: 'x' }, w.aliceAuth), 404, 10013);
    expect(await socialCounts(w.client)).toEqual(before);
  });

  it('content is 1 to 2000 characters, metadata as a lobby message takes it, the recipient a snowflake (50035)', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    expectInvalidField(await w.client.post(dms(w.bob.id), { content: '' }, w.aliceAuth), 'content');
    expectInvalidField(await w.client.post(dms(w.bob.id), { content: 'x'.repeat(2001) }, w.aliceAuth), 'content');
    expectInvalidField(await w.client.post(dms(w.bob.id), {}, w.aliceAuth), 'content');
    const keys26 = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    expectInvalidField(await w.client.post(dms(w.bob.id), { content: 'x', metadata: keys26 }, w.aliceAuth), 'metadata');
    expectInvalidField(await w.client.post(dms('bob'), { content: 'x' }, w.aliceAuth), 'recipient_id');
    expect(await socialCounts(w.client)).toMatchObject({ channels: 0, messages: 0 });
    expect((await w.client.post(dms(w.bob.id), { content: '🎲'.repeat(2000) }, w.aliceAuth)).status).toBe(200);
  });

  it('needs dm_channels.messages.write (403 50001); a bot is 403 20001', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    expectError(
      await w.client.post(dms(w.bob.id), { content: 'x' }, await w.token(w.alice.id, 'dm_channels.messages.read')),
      403,
      50001,
    );
    expectError(await w.client.post(dms(w.bob.id), { content: 'x' }, w.botAuth), 403, 20001);
    expect(
      (await w.client.post(dms(w.bob.id), { content: 'x' }, await w.token(w.alice.id, 'dm_channels.messages.write')))
        .status,
    ).toBe(200);
  });
});

describe('GET /users/@me/dms/{recipient_id}/messages (GetUserMessagesWithLimit)', () => {
  it('answers the newest first, at most `limit` (1-200, default 50); limit 0 or 201 is 50035', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    for (const content of ['a', 'b', 'c']) await w.client.post(dms(w.bob.id), { content }, w.aliceAuth);
    await w.client.post(dms(w.alice.id), { content: 'd' }, w.bobAuth);
    expect((await w.client.get(dms(w.bob.id), w.aliceAuth)).body.map((m: any) => m.content)).toEqual([
      'd',
      'c',
      'b',
      'a',
    ]);
    expect((await w.client.get(`${dms(w.alice.id)}?limit=2`, w.bobAuth)).body.map((m: any) => m.content)).toEqual([
      'd',
      'c',
    ]);
    expectInvalidField(await w.client.get(`${dms(w.bob.id)}?limit=0`, w.aliceAuth), 'limit');
    expectInvalidField(await w.client.get(`${dms(w.bob.id)}?limit=201`, w.aliceAuth), 'limit');
    expect((await w.client.get(`${dms(w.bob.id)}?limit=200`, w.aliceAuth)).body).toHaveLength(4);
  });

  it('answers only messages of the last 72 hours, judged by the platform clock', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    // Later than any id handed out so far, so the ids carry these instants; a token of that time.
    const start = Date.parse('2031-01-01T00:00:00.000Z');
    await w.client.put('/sandbox/clock', { now: new Date(start).toISOString() });
    const alice = await w.token(w.alice.id, 'openid sdk.social_layer');
    await w.client.post(dms(w.bob.id), { content: 'old' }, alice);
    await w.client.put('/sandbox/clock', { now: new Date(start + 3_600_000).toISOString() });
    await w.client.post(dms(w.bob.id), { content: 'new' }, alice);
    const read = async () => (await w.client.get(dms(w.bob.id), alice)).body.map((m: any) => m.content);
    await w.client.put('/sandbox/clock', { now: new Date(start + 72 * 3_600_000).toISOString() });
    expect(await read()).toEqual(['new', 'old']);
    await w.client.put('/sandbox/clock', { now: new Date(start + 72 * 3_600_000 + 1).toISOString() });
    expect(await read()).toEqual(['new']);
    // Still stored: only the read is bounded.
    expect((await socialCounts(w.client)).messages).toBe(2);
  });

  it('both users must have played the game: otherwise 404 10003; no messages yet is an empty list', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.dave.id, 1);
    await w.client.post(dms(w.dave.id), { content: 'kept' }, w.aliceAuth);
    expectError(await w.client.get(dms(w.dave.id), w.aliceAuth), 404, 10003);
    expect((await w.client.get(dms(w.carol.id), w.aliceAuth)).body).toEqual([]);
    expectError(await w.client.get(dms('123456789012345678'), w.aliceAuth), 404, 10013);
  });

  it('needs dm_channels.messages.read (403 50001); a bot is 403 20001', async () => {
    const w = await socialWorld();
    expectError(await w.client.get(dms(w.bob.id), await w.token(w.alice.id, 'dm_channels.messages.write')), 403, 50001);
    expectError(await w.client.get(dms(w.bob.id), w.botAuth), 403, 20001);
  });
});

describe('GET /users/@me/channels', () => {
  it("lists the caller's DM channels with the other user as recipient, most recent first; needs dm_channels.read", async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    await w.relate(w.alice.id, w.carol.id, 1);
    await w.client.post(dms(w.bob.id), { content: 'to bob' }, w.aliceAuth);
    const toCarol = (await w.client.post(dms(w.carol.id), { content: 'to carol' }, w.aliceAuth)).body;
    const reply = await w.client.get(CHANNELS, w.aliceAuth);
    expect(reply.body).toEqual([
      {
        id: toCarol.channel_id,
        type: 1,
        last_message_id: toCarol.id,
        flags: 0,
        recipients: [expect.objectContaining({ id: w.carol.id })],
      },
      expect.objectContaining({ type: 1, recipients: [expect.objectContaining({ id: w.bob.id })] }),
    ]);
    expect((await w.client.get(CHANNELS, w.bobAuth)).body).toEqual([
      expect.objectContaining({ recipients: [expect.objectContaining({ id: w.alice.id })] }),
    ]);
    expectError(await w.client.get(CHANNELS, await w.token(w.alice.id, 'identify')), 403, 50001);
  });

  it('no token or secret reaches a DM event', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    await w.client.post(dms(w.bob.id), { content: 'secret-free' }, w.aliceAuth);
    await w.client.post(dms(w.carol.id), { content: 'ephemeral' }, w.aliceAuth);
    const logged = JSON.stringify(await loggedEvents(w.client));
    for (const secret of w.secrets) expect(logged).not.toContain(secret);
  });
});

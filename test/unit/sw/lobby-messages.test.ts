// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { expectError, expectInvalidField, loggedEvents, lobbyWorld, storeCounts } from './lobby-fixtures';

const LOBBIES = '/api/v10/lobbies';

async function lobbyWithAliceAndBob() {
  const w = await lobbyWorld();
  const lobby = (await w.client.put(LOBBIES, { secret: 'chat' }, w.aliceAuth)).body;
  await w.client.put(LOBBIES, { secret: 'chat' }, w.bobAuth);
  return { ...w, lobby, messages: `${LOBBIES}/${lobby.id}/messages` };
}

describe('POST /lobbies/{id}/messages: a member sends on their own behalf', () => {
  it('answers 201 Created with the message object: id, type 0, content, lobby_id, channel_id = lobby id, author, timestamp, metadata when set, flags 0, application_id', async () => {
    const w = await lobbyWithAliceAndBob();
    await w.client.put('/sandbox/clock', { now: '2026-02-03T04:05:06.000Z' });
    const reply = await w.client.post(w.messages, { content: 'gg', metadata: { kind: 'chat' } }, w.aliceAuth);
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 0,
      content: 'gg',
      lobby_id: w.lobby.id,
      channel_id: w.lobby.id,
      author: expect.objectContaining({ id: w.alice.id, username: 'alice' }),
      timestamp: '2026-02-03T04:05:06.000Z',
      edited_timestamp: null,
      metadata: { kind: 'chat' },
      flags: 0,
      application_id: w.application.id,
    });
    const [event] = await loggedEvents(w.client, 'LOBBY_MESSAGE_CREATE');
    expect(event.data).toEqual(reply.body);
    expect([...event.audience.user_ids!].sort()).toEqual([w.alice.id, w.bob.id].sort());
    // Without metadata the field is left out (the official description has no null there).
    const plain = await w.client.post(w.messages, { content: 'no metadata' }, w.aliceAuth);
    expect(plain.body).not.toHaveProperty('metadata');
  });

  it('a non-member is 403 50001; another application is 404 10031; nothing is stored', async () => {
    const w = await lobbyWithAliceAndBob();
    const before = await storeCounts(w.client);
    expectError(await w.client.post(w.messages, { content: 'let me in' }, w.carolAuth), 403, 50001);
    expectError(await w.client.post(w.messages, { content: 'x' }, w.aliceOtherAuth), 404, 10031);
    expectError(await w.client.post(w.messages, { content: 'x' }, w.otherBotAuth), 404, 10031);
    expect(await storeCounts(w.client)).toEqual(before);
  });

  it('a post removes the empty lobbies past their idle timeout in its own write, before its message; a post to one of them is 404 10031 and undoes the removal', async () => {
    const w = await lobbyWithAliceAndBob();
    await w.client.put('/sandbox/clock', { now: '2026-02-03T04:05:00.000Z' });
    const empty = (await w.client.post(LOBBIES, { idle_timeout_seconds: 5 }, w.botAuth)).body;
    await w.client.put('/sandbox/clock', { now: '2026-02-03T04:05:06.000Z' });
    expectError(await w.client.post(`${LOBBIES}/${empty.id}/messages`, { content: 'late' }, w.botAuth), 404, 10031);
    expect(await w.client.db.get('lobbies', empty.id)).toBeDefined();
    expect((await w.client.post(w.messages, { content: 'on time' }, w.aliceAuth)).status).toBe(201);
    expect(await w.client.db.get('lobbies', empty.id)).toBeUndefined();
    const last = (await loggedEvents(w.client)).slice(-2);
    expect(
      last.map((e) => [e.type, (e.data as { id?: string; content?: string }).content ?? (e.data as { id: string }).id]),
    ).toEqual([
      ['LOBBY_DELETE', empty.id],
      ['LOBBY_MESSAGE_CREATE', 'on time'],
    ]);
  });

  it('content is 1 to 4000 characters: empty and 4001 are 50035 naming content', async () => {
    const w = await lobbyWithAliceAndBob();
    expectInvalidField(await w.client.post(w.messages, { content: '' }, w.aliceAuth), 'content');
    expectInvalidField(await w.client.post(w.messages, { content: 'x'.repeat(4001) }, w.aliceAuth), 'content');
    expectInvalidField(await w.client.post(w.messages, {}, w.aliceAuth), 'content');
    expect(await w.client.db.count('lobby_messages')).toBe(0);
    expect((await w.client.post(w.messages, { content: 'x'.repeat(4000) }, w.aliceAuth)).status).toBe(201);
    // Characters, not UTF-16 units: 4000 emoji are 4000 characters.
    expect((await w.client.post(w.messages, { content: '🎲'.repeat(4000) }, w.aliceAuth)).status).toBe(201);
  });

  it('message metadata: at most 25 keys, each key and value at most 1024 characters', async () => {
    const w = await lobbyWithAliceAndBob();
    const keys26 = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    expectInvalidField(await w.client.post(w.messages, { content: 'x', metadata: keys26 }, w.aliceAuth), 'metadata');
    expectInvalidField(
      await w.client.post(w.messages, { content: 'x', metadata: { k: 'v'.repeat(1025) } }, w.aliceAuth),
      'metadata',
    );
    expect(
      (await w.client.post(w.messages, { content: 'x', metadata: { k: 'v'.repeat(1024) } }, w.aliceAuth)).status,
    ).toBe(201);
  });

  it('message metadata is a dictionary: an array is 50035 naming metadata and nothing is stored', async () => {
    const w = await lobbyWithAliceAndBob();
    const before = await storeCounts(w.client);
    expectInvalidField(
      await w.client.post(w.messages, { content: 'x', metadata: ['x', 'y'] }, w.aliceAuth),
      'metadata',
    );
    expectInvalidField(await w.client.post(w.messages, { content: 'x', metadata: 'x' }, w.aliceAuth), 'metadata');
    expect(await storeCounts(w.client)).toEqual(before);
  });

  it("the application's bot may post to its lobby, as the bot", async () => {
    const w = await lobbyWithAliceAndBob();
    const reply = await w.client.post(w.messages, { content: 'server says hi' }, w.botAuth);
    expect(reply.status).toBe(201);
    expect(reply.body.author).toEqual(expect.objectContaining({ id: w.bot.id, bot: true }));
  });

  it('two concurrent writers lose nothing: 50 posts at once are all stored with distinct, increasing ids', async () => {
    const w = await lobbyWithAliceAndBob();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        w.client.post(w.messages, { content: `m${i}` }, i % 2 ? w.aliceAuth : w.bobAuth),
      ),
    );
    expect(replies.every((r) => r.status === 201)).toBe(true);
    const ids = replies.map((r) => BigInt(r.body.id));
    expect(new Set(ids).size).toBe(50);
    const stored = (await w.client.get(`${w.messages}?limit=200`, w.aliceAuth)).body as {
      id: string;
      content: string;
    }[];
    expect(stored.length).toBe(50);
    expect(new Set(stored.map((m) => m.content))).toEqual(new Set(replies.map((r) => r.body.content)));
    // Read back newest first; and in the event log (commit order) ids only increase.
    const storedIds = stored.map((m) => BigInt(m.id));
    for (let i = 1; i < storedIds.length; i++) expect(storedIds[i - 1] > storedIds[i]).toBe(true);
    const events = await loggedEvents(w.client, 'LOBBY_MESSAGE_CREATE');
    const eventIds = events.map((e) => BigInt((e.data as { id: string }).id));
    for (let i = 1; i < eventIds.length; i++) expect(eventIds[i] > eventIds[i - 1]).toBe(true);
  });
});

describe('GET /lobbies/{id}/messages: the most recent messages, newest first', () => {
  it('answers newest first, 50 by default, up to the limit asked for', async () => {
    const w = await lobbyWithAliceAndBob();
    for (let i = 0; i < 60; i++) await w.client.post(w.messages, { content: `m${i}` }, w.aliceAuth);
    const byDefault = await w.client.get(w.messages, w.bobAuth);
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.map((m: { content: string }) => m.content)).toEqual(
      Array.from({ length: 50 }, (_, i) => `m${59 - i}`),
    );
    const three = await w.client.get(`${w.messages}?limit=3`, w.bobAuth);
    expect(three.body.map((m: { content: string }) => m.content)).toEqual(['m59', 'm58', 'm57']);
    expect((await w.client.get(`${w.messages}?limit=200`, w.bobAuth)).body.length).toBe(60);
    expect((await w.client.get(`${w.messages}?limit=1`, w.bobAuth)).body.length).toBe(1);
  });

  it('limit is 1 to 200: 0, 201 and a non-number are 50035 naming limit', async () => {
    const w = await lobbyWithAliceAndBob();
    for (const limit of ['0', '201', 'ten', '-1', '1.5'])
      expectInvalidField(await w.client.get(`${w.messages}?limit=${limit}`, w.aliceAuth), 'limit');
  });

  it("only members (403 50001 for a non-member) and the application's bot may read", async () => {
    const w = await lobbyWithAliceAndBob();
    await w.client.post(w.messages, { content: 'secret plans' }, w.aliceAuth);
    expectError(await w.client.get(w.messages, w.carolAuth), 403, 50001);
    expectError(await w.client.get(w.messages, w.otherBotAuth), 404, 10031);
    const asBot = await w.client.get(w.messages, w.botAuth);
    expect(asBot.body.map((m: { content: string }) => m.content)).toEqual(['secret plans']);
    // A member who left can no longer read.
    await w.client.delete(`${LOBBIES}/${w.lobby.id}/members/@me`, w.bobAuth);
    expectError(await w.client.get(w.messages, w.bobAuth), 403, 50001);
  });

  it("answers the newest messages however old: the route has no time window (the 72 hours are the SDK's GetLobbyMessagesWithLimit)", async () => {
    const w = await lobbyWorld();
    // Later than any id handed out so far. (The bot speaks and reads here: the users' access
    // tokens would have expired by then.)
    const start = Date.parse('2031-01-01T00:00:00Z');
    await w.client.put('/sandbox/clock', { now: new Date(start).toISOString() });
    const lobby = (await w.client.post(LOBBIES, { members: [{ id: w.alice.id }] }, w.botAuth)).body;
    const path = `${LOBBIES}/${lobby.id}/messages`;
    await w.client.post(path, { content: 'old' }, w.botAuth);
    await w.client.put('/sandbox/clock', { now: new Date(start + 3_600_000).toISOString() });
    await w.client.post(path, { content: 'newer' }, w.botAuth);
    await w.client.put('/sandbox/clock', { now: new Date(start + 400 * 24 * 3_600_000).toISOString() });
    const read = await w.client.get(`${path}?limit=200`, w.botAuth);
    expect(read.body.map((m: { content: string }) => m.content)).toEqual(['newer', 'old']);
    expect((await w.client.get(`${path}?limit=1`, w.botAuth)).body.map((m: { content: string }) => m.content)).toEqual([
      'newer',
    ]);
  });

  it('every answer states the platform clock in its Date header (to the second), as an HTTP server states its time', async () => {
    const w = await lobbyWithAliceAndBob();
    const frozen = Date.parse('2031-06-01T10:20:30.456Z');
    await w.client.put('/sandbox/clock', { now: new Date(frozen).toISOString() });
    const fetchDate = async (path: string, auth?: string) => (await w.client.get(path, auth)).headers.get('Date');
    const expected = new Date(frozen).toUTCString();
    expect(expected).toBe('Sun, 01 Jun 2031 10:20:30 GMT');
    expect(await fetchDate(w.messages, w.botAuth)).toBe(expected);
    expect(await fetchDate('/sandbox/clock')).toBe(expected);
    expect(await fetchDate('/api/v10/no-such-route', w.botAuth)).toBe(expected);
    expect(await fetchDate(w.messages)).toBe(expected);
  });

  it('messages of one lobby never appear in another', async () => {
    const w = await lobbyWithAliceAndBob();
    const other = (await w.client.put(LOBBIES, { secret: 'other-chat' }, w.aliceAuth)).body;
    await w.client.post(w.messages, { content: 'in chat' }, w.aliceAuth);
    await w.client.post(`${LOBBIES}/${other.id}/messages`, { content: 'in other' }, w.aliceAuth);
    expect((await w.client.get(w.messages, w.aliceAuth)).body.map((m: { content: string }) => m.content)).toEqual([
      'in chat',
    ]);
    expect(
      (await w.client.get(`${LOBBIES}/${other.id}/messages`, w.aliceAuth)).body.map(
        (m: { content: string }) => m.content,
      ),
    ).toEqual(['in other']);
  });
});

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

type World = Awaited<ReturnType<typeof socialWorld>>;

async function eventsAfter(w: World, after: number) {
  return (await loggedEvents(w.client)).filter((e) => e.seq! > after);
}

/** Alice and bob in one lobby of the game, with a message of alice's. */
async function lobbyWithMessage() {
  const w = await socialWorld();
  const lobby = (await w.client.put(`${API}/lobbies`, { secret: 'mod' }, w.aliceAuth)).body;
  await w.client.put(`${API}/lobbies`, { secret: 'mod' }, w.bobAuth);
  const message = (await w.client.post(`${API}/lobbies/${lobby.id}/messages`, { content: 'gg ez' }, w.aliceAuth)).body;
  const path = (lobbyId = lobby.id, messageId = message.id) =>
    `${API}/lobbies/${lobbyId}/messages/${messageId}/moderation-metadata`;
  return { ...w, lobby, message, path };
}

/** Alice and bob friends, with a kept DM of alice's sent from the game. */
async function dmWithMessage() {
  const w = await socialWorld();
  await w.relate(w.alice.id, w.bob.id, 1);
  const message = (await w.client.post(`${API}/users/@me/dms/${w.bob.id}/messages`, { content: 'ready?' }, w.aliceAuth))
    .body;
  const path = (a = w.alice.id, b = w.bob.id, messageId = message.id) =>
    `${API}/partner-sdk/dms/${a}/${b}/messages/${messageId}/moderation-metadata`;
  return { ...w, message, path };
}

describe('PUT /lobbies/{lobby.id}/messages/{message.id}/moderation-metadata', () => {
  it('204; the message carries the metadata, and members hear LOBBY_MESSAGE_UPDATE with it (gateway and webhook)', async () => {
    const w = await lobbyWithMessage();
    const after = await logPosition(w.client);
    const reply = await w.client.put(w.path(), { verdict: 'toxic', action: 'hide' }, w.botAuth);
    expect(reply.status).toBe(204);
    expect(reply.body).toBeNull();
    const [stored] = (await w.client.get(`${API}/lobbies/${w.lobby.id}/messages`, w.bobAuth)).body;
    expect(stored).toEqual({ ...w.message, moderation_metadata: { verdict: 'toxic', action: 'hide' } });
    const [event] = await eventsAfter(w, after);
    expect(event.type).toBe('LOBBY_MESSAGE_UPDATE');
    expect(event.data).toEqual(stored);
    expect(event.channels).toEqual(['gateway', 'webhook']);
    expect(event.audience.application_id).toBe(w.application.id);
    expect([...event.audience.user_ids!].sort()).toEqual([w.alice.id, w.bob.id].sort());
  });

  it('replaces what the message had', async () => {
    const w = await lobbyWithMessage();
    await w.client.put(w.path(), { a: '1', b: '2' }, w.botAuth);
    await w.client.put(w.path(), { c: '3' }, w.botAuth);
    expect(
      (await w.client.get(`${API}/lobbies/${w.lobby.id}/messages`, w.aliceAuth)).body[0].moderation_metadata,
    ).toEqual({ c: '3' });
  });

  it("the bot of the lobby's application only: a user 403 20002, another game's bot 404 10031, an unknown message 404 10008; nothing changes", async () => {
    const w = await lobbyWithMessage();
    const other = (await w.client.put(`${API}/lobbies`, { secret: 'other' }, w.carolAuth)).body;
    const before = await socialCounts(w.client);
    expectError(await w.client.put(w.path(), { a: 'b' }, w.aliceAuth), 403, 20002);
    expectError(await w.client.put(w.path(), { a: 'b' }, w.otherBotAuth), 404, 10031);
    expectError(await w.client.put(w.path('123456789012345678'), { a: 'b' }, w.botAuth), 404, 10031);
    expectError(await w.client.put(w.path(w.lobby.id, '123456789012345678'), { a: 'b' }, w.botAuth), 404, 10008);
    expectError(await w.client.put(w.path(other.id), { a: 'b' }, w.botAuth), 404, 10008);
    expect(await socialCounts(w.client)).toEqual(before);
    expect((await w.client.get(`${API}/lobbies/${w.lobby.id}/messages`, w.aliceAuth)).body[0]).not.toHaveProperty(
      'moderation_metadata',
    );
  });

  it('up to 5 keys, each key up to 1024 and each value up to 2000 characters, string values (50035 otherwise)', async () => {
    const w = await lobbyWithMessage();
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
    const before = await socialCounts(w.client);
    expectInvalidField(await w.client.put(w.path(), six, w.botAuth), '_root');
    expectInvalidField(await w.client.put(w.path(), { ['k'.repeat(1025)]: 'v' }, w.botAuth), '_root');
    expectInvalidField(await w.client.put(w.path(), { k: 'v'.repeat(2001) }, w.botAuth), '_root');
    expectInvalidField(await w.client.put(w.path(), { k: 1 }, w.botAuth), 'k');
    expectInvalidField(await w.client.put(w.path(), ['v'], w.botAuth), '_root');
    expectError(
      await w.client.request('PUT', w.path(), {
        raw: '{nope',
        token: w.botAuth,
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      50109,
    );
    expect(await socialCounts(w.client)).toEqual(before);
    const five = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`${i}${'k'.repeat(1023)}`, 'v'.repeat(2000)]));
    expect((await w.client.put(w.path(), five, w.botAuth)).status).toBe(204);
  });
});

describe('PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message.id}/moderation-metadata', () => {
  it("204 in either order of the users; both users' sessions of the game hear MESSAGE_UPDATE with it, webhooks GAME_DIRECT_MESSAGE_UPDATE", async () => {
    const w = await dmWithMessage();
    const after = await logPosition(w.client);
    expect((await w.client.put(w.path(w.bob.id, w.alice.id), { verdict: 'ok' }, w.botAuth)).status).toBe(204);
    const [stored] = (await w.client.get(`${API}/users/@me/dms/${w.alice.id}/messages`, w.bobAuth)).body;
    expect(stored).toEqual({ ...w.message, moderation_metadata: { verdict: 'ok' } });
    const events = await eventsAfter(w, after);
    expect(events.map((e) => [e.type, e.channels])).toEqual([
      ['MESSAGE_UPDATE', ['gateway']],
      ['GAME_DIRECT_MESSAGE_UPDATE', ['webhook']],
    ]);
    expect(events[0].data).toEqual(stored);
    expect(events[0].audience).toEqual({
      user_ids: expect.arrayContaining([w.alice.id, w.bob.id]),
      application_id: w.application.id,
    });
    expect(events[1].data).toMatchObject({
      id: w.message.id,
      moderation_metadata: { verdict: 'ok' },
      channel: { id: w.message.channel_id, type: 1 },
    });
  });

  it("is app-scoped: another game's bot gets 404 10008, and another game's reader does not see it", async () => {
    const w = await dmWithMessage();
    expectError(await w.client.put(w.path(), { verdict: 'x' }, w.otherBotAuth), 404, 10008);
    await w.client.put(w.path(), { verdict: 'mine' }, w.botAuth);
    await w.client.post('/sandbox/tokens', {
      application_id: w.otherApplication.id,
      user_id: w.bob.id,
      scopes: 'openid sdk.social_layer',
    });
    const [seenElsewhere] = (await w.client.get(`${API}/users/@me/dms/${w.bob.id}/messages`, w.aliceOtherAuth)).body;
    expect(seenElsewhere.id).toBe(w.message.id);
    expect(seenElsewhere).not.toHaveProperty('moderation_metadata');
  });

  it('refusals change nothing: a user 403 20002, no DM channel 404 10003, unknown message 404 10008, bad body or ids 50035', async () => {
    const w = await dmWithMessage();
    const before = await socialCounts(w.client);
    expectError(await w.client.put(w.path(), { a: 'b' }, w.aliceAuth), 403, 20002);
    expectError(await w.client.put(w.path(w.alice.id, w.carol.id), { a: 'b' }, w.botAuth), 404, 10003);
    expectError(
      await w.client.put(w.path(w.alice.id, w.bob.id, '123456789012345678'), { a: 'b' }, w.botAuth),
      404,
      10008,
    );
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
    expectInvalidField(await w.client.put(w.path(), six, w.botAuth), '_root');
    expectInvalidField(await w.client.put(w.path('alice'), { a: 'b' }, w.botAuth), 'user_id_1');
    expect(await socialCounts(w.client)).toEqual(before);
  });
});

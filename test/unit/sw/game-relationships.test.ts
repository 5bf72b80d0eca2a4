// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  API,
  expectError,
  expectInvalidField,
  logPosition,
  relationshipEvents,
  socialCounts,
  socialWorld,
} from './social-fixtures';

const RELATIONSHIPS = `${API}/users/@me/relationships`;
const GAME = `${API}/users/@me/game-relationships`;

describe("/users/@me/game-relationships: game friends of the caller's game", () => {
  it('a game friend request and its acceptance, with GAME_RELATIONSHIP_ADD / UPDATE to each user and that game only', async () => {
    const w = await socialWorld();
    await w.client.put('/sandbox/clock', { now: '2026-05-06T07:08:09.000Z' });
    expect((await w.client.put(`${GAME}/${w.bob.id}`, {}, w.aliceAuth)).status).toBe(204);
    expect((await w.client.get(GAME, w.aliceAuth)).body).toEqual([
      {
        id: w.bob.id,
        application_id: w.application.id,
        type: 4,
        user: expect.objectContaining({ id: w.bob.id }),
        since: '2026-05-06T07:08:09.000Z',
      },
    ]);
    expect((await w.client.post(GAME, { username: 'alice' }, w.bobAuth)).status).toBe(204);
    expect((await w.client.get(GAME, w.bobAuth)).body).toEqual([expect.objectContaining({ id: w.alice.id, type: 1 })]);
    expect(await relationshipEvents(w.client)).toEqual([
      { type: 'GAME_RELATIONSHIP_ADD', to: [w.alice.id], app: w.application.id, id: w.bob.id, kind: 4 },
      { type: 'GAME_RELATIONSHIP_ADD', to: [w.bob.id], app: w.application.id, id: w.alice.id, kind: 3 },
      { type: 'GAME_RELATIONSHIP_UPDATE', to: [w.bob.id], app: w.application.id, id: w.alice.id, kind: 1 },
      { type: 'GAME_RELATIONSHIP_UPDATE', to: [w.alice.id], app: w.application.id, id: w.bob.id, kind: 1 },
    ]);
  });

  it('game relationships are per game and apart from the platform one: another game and /relationships do not see them', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1, w.application.id);
    expect((await w.client.get(GAME, w.aliceOtherAuth)).body).toEqual([]);
    expect((await w.client.get(RELATIONSHIPS, w.aliceAuth)).body).toEqual([]);
    expect((await w.client.get(GAME, w.aliceAuth)).body).toHaveLength(1);
  });

  it('a provisional account has game friends (a platform request is 400 50229)', async () => {
    const w = await socialWorld();
    const guest = await w.provisional('guest-7');
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, {}, guest.auth), 400, 50229);
    expect((await w.client.put(`${GAME}/${w.alice.id}`, {}, guest.auth)).status).toBe(204);
    expect((await w.client.put(`${GAME}/${guest.user.id}`, {}, w.aliceAuth)).status).toBe(204);
    expect((await w.client.get(GAME, guest.auth)).body).toEqual([expect.objectContaining({ id: w.alice.id, type: 1 })]);
  });

  it('the other user must have played the game: otherwise 400 80000 and nothing stored', async () => {
    const w = await socialWorld();
    const before = await socialCounts(w.client);
    expectError(await w.client.put(`${GAME}/${w.dave.id}`, {}, w.aliceAuth), 400, 80000);
    expectError(await w.client.post(GAME, { username: 'dave' }, w.aliceAuth), 400, 80000);
    expect(await socialCounts(w.client)).toEqual(before);
    // A platform friend request needs no game.
    expect((await w.client.put(`${RELATIONSHIPS}/${w.dave.id}`, {}, w.aliceAuth)).status).toBe(204);
  });

  it('blocks are platform-wide: type 2 on a game relationship is 50035; unknown user 404 10013', async () => {
    const w = await socialWorld();
    expectInvalidField(await w.client.put(`${GAME}/${w.bob.id}`, { type: 2 }, w.aliceAuth), 'type');
    expectError(await w.client.put(`${GAME}/123456789012345678`, {}, w.aliceAuth), 404, 10013);
    expect((await socialCounts(w.client)).relationships).toBe(0);
  });

  it('RemoveGameFriend: DELETE removes both game sides and leaves the platform friendship', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    await w.relate(w.alice.id, w.bob.id, 1, w.application.id);
    const after = await logPosition(w.client);
    expect((await w.client.delete(`${GAME}/${w.bob.id}`, w.aliceAuth)).status).toBe(204);
    expect((await w.client.get(GAME, w.bobAuth)).body).toEqual([]);
    expect((await w.client.get(RELATIONSHIPS, w.bobAuth)).body).toEqual([
      expect.objectContaining({ id: w.alice.id, type: 1 }),
    ]);
    expect((await relationshipEvents(w.client, after)).map((e) => [e.type, e.to])).toEqual([
      ['GAME_RELATIONSHIP_REMOVE', [w.alice.id]],
      ['GAME_RELATIONSHIP_REMOVE', [w.bob.id]],
    ]);
  });
});

describe('PUT /sandbox/users/{user_id}/relationships/{other_id}', () => {
  it("sets a pair directly and answers both sides; type is the user's side (3 incoming, 4 outgoing, 0 none)", async () => {
    const w = await socialWorld();
    const sides = await w.relate(w.alice.id, w.bob.id, 3);
    expect(sides).toEqual({
      relationship: expect.objectContaining({ id: w.bob.id, type: 3, user: expect.objectContaining({ id: w.bob.id }) }),
      other_relationship: expect.objectContaining({ id: w.alice.id, type: 4 }),
    });
    expect((await w.relate(w.alice.id, w.bob.id, 1)).other_relationship.type).toBe(1);
    expect(await w.relate(w.alice.id, w.bob.id, 0)).toEqual({ relationship: null, other_relationship: null });
    const game = await w.relate(w.alice.id, w.bob.id, 4, w.application.id);
    expect(game.relationship).toEqual(expect.objectContaining({ application_id: w.application.id, type: 4 }));
    expect((await w.client.get(GAME, w.bobAuth)).body).toEqual([expect.objectContaining({ id: w.alice.id, type: 3 })]);
  });

  it('emits the same events as the user routes, so connected clients see it', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    expect((await relationshipEvents(w.client)).map((e) => [e.type, e.to, e.kind])).toEqual([
      ['RELATIONSHIP_ADD', [w.alice.id], 1],
      ['RELATIONSHIP_ADD', [w.bob.id], 1],
    ]);
  });

  it('refusals: same user or bad type 50035, a block in a game 50035, unknown user 10013 or application 10002, provisional platform friends 50229', async () => {
    const w = await socialWorld();
    const guest = await w.provisional('guest-9');
    const put = (user: string, other: string, body: unknown) =>
      w.client.put(`/sandbox/users/${user}/relationships/${other}`, body);
    const before = await socialCounts(w.client);
    expectInvalidField(await put(w.alice.id, w.alice.id, { type: 1 }), 'other_id');
    expectInvalidField(await put(w.alice.id, w.bob.id, { type: 5 }), 'type');
    expectInvalidField(await put(w.alice.id, w.bob.id, { type: 2, application_id: w.application.id }), 'type');
    expectError(await put(w.alice.id, '123456789012345678', { type: 1 }), 404, 10013);
    expectError(await put(w.alice.id, w.bob.id, { type: 1, application_id: '123456789012345678' }), 404, 10002);
    expectError(await put(w.alice.id, guest.user.id, { type: 1 }), 400, 50229);
    expect(await socialCounts(w.client)).toEqual(before);
  });
});

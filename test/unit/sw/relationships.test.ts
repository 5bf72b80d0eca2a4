// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { RpcSession } from '../../../src/rpc/context';
import { translatePlatformEvent } from '../../../src/rpc/platform-dispatches';
import {
  API,
  expectError,
  expectInvalidField,
  logPosition,
  loggedEvents,
  relationshipEvents,
  socialCounts,
  socialWorld,
} from './social-fixtures';

const RELATIONSHIPS = `${API}/users/@me/relationships`;
const GAME = `${API}/users/@me/game-relationships`;

describe('GET /users/@me/relationships', () => {
  it('answers the platform relationships: {id, type, nickname, user, since}', async () => {
    const w = await socialWorld();
    expect((await w.client.get(RELATIONSHIPS, w.aliceAuth)).body).toEqual([]);
    await w.client.put('/sandbox/clock', { now: '2026-03-04T05:06:07.000Z' });
    await w.relate(w.alice.id, w.bob.id, 1);
    const reply = await w.client.get(RELATIONSHIPS, w.aliceAuth);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      {
        id: w.bob.id,
        type: 1,
        nickname: null,
        user: expect.objectContaining({ id: w.bob.id, username: 'bob' }),
        since: '2026-03-04T05:06:07.000Z',
      },
    ]);
  });

  it('needs relationships.read (sdk.social_layer_presence expands to it); bots are 403 20001; no token is 401', async () => {
    const w = await socialWorld();
    expectError(await w.client.get(RELATIONSHIPS, await w.token(w.alice.id, 'identify')), 403, 50001);
    expect(
      (await w.client.get(RELATIONSHIPS, await w.token(w.alice.id, 'openid sdk.social_layer_presence'))).status,
    ).toBe(200);
    expect((await w.client.get(RELATIONSHIPS, await w.token(w.alice.id, 'relationships.read'))).status).toBe(200);
    expectError(await w.client.get(RELATIONSHIPS, w.botAuth), 403, 20001);
    expectError(await w.client.get(RELATIONSHIPS), 401, 0);
  });
});

describe('PUT /users/@me/relationships/{user.id}: friend requests', () => {
  it('a request makes the sender PENDING_OUTGOING (4) and the recipient PENDING_INCOMING (3), with RELATIONSHIP_ADD to each alone', async () => {
    const w = await socialWorld();
    const reply = await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, w.aliceAuth);
    expect(reply.status).toBe(204);
    expect((await w.client.get(RELATIONSHIPS, w.aliceAuth)).body).toEqual([
      expect.objectContaining({ id: w.bob.id, type: 4 }),
    ]);
    expect((await w.client.get(RELATIONSHIPS, w.bobAuth)).body).toEqual([
      expect.objectContaining({ id: w.alice.id, type: 3 }),
    ]);
    expect(await relationshipEvents(w.client)).toEqual([
      { type: 'RELATIONSHIP_ADD', to: [w.alice.id], app: undefined, id: w.bob.id, kind: 4 },
      { type: 'RELATIONSHIP_ADD', to: [w.bob.id], app: undefined, id: w.alice.id, kind: 3 },
    ]);
  });

  it('a request to someone who already asked accepts theirs: both FRIEND (1), with RELATIONSHIP_UPDATE to each', async () => {
    const w = await socialWorld();
    await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, w.aliceAuth);
    const after = await logPosition(w.client);
    expect((await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, { type: 1 }, w.bobAuth)).status).toBe(204);
    expect((await w.client.get(RELATIONSHIPS, w.aliceAuth)).body[0].type).toBe(1);
    expect((await w.client.get(RELATIONSHIPS, w.bobAuth)).body[0].type).toBe(1);
    expect(await relationshipEvents(w.client, after)).toEqual([
      { type: 'RELATIONSHIP_UPDATE', to: [w.bob.id], app: undefined, id: w.alice.id, kind: 1 },
      { type: 'RELATIONSHIP_UPDATE', to: [w.alice.id], app: undefined, id: w.bob.id, kind: 1 },
    ]);
  });

  it('asking again, or asking a friend, changes nothing and emits nothing', async () => {
    const w = await socialWorld();
    await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, w.aliceAuth);
    await w.relate(w.alice.id, w.carol.id, 1);
    const before = await socialCounts(w.client);
    expect((await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, w.aliceAuth)).status).toBe(204);
    expect((await w.client.put(`${RELATIONSHIPS}/${w.carol.id}`, {}, w.aliceAuth)).status).toBe(204);
    expect(await socialCounts(w.client)).toEqual(before);
  });

  it('POST /users/@me/relationships {username} is the same request by name; an unknown name is 400 80004', async () => {
    const w = await socialWorld();
    expect((await w.client.post(RELATIONSHIPS, { username: 'bob' }, w.aliceAuth)).status).toBe(204);
    expect((await w.client.get(RELATIONSHIPS, w.bobAuth)).body).toEqual([
      expect.objectContaining({ id: w.alice.id, type: 3 }),
    ]);
    const before = await socialCounts(w.client);
    expectError(await w.client.post(RELATIONSHIPS, { username: 'nobody' }, w.aliceAuth), 400, 80004);
    expectInvalidField(await w.client.post(RELATIONSHIPS, {}, w.aliceAuth), 'username');
    expectInvalidField(await w.client.post(RELATIONSHIPS, { username: 'x'.repeat(33) }, w.aliceAuth), 'username');
    expect(await socialCounts(w.client)).toEqual(before);
  });

  it('refusals store nothing: unknown user 404 10013, oneself or a bot 400 50033, a provisional account 400 50229, bad type or id 50035', async () => {
    const w = await socialWorld();
    const guest = await w.provisional('guest-1');
    const before = await socialCounts(w.client);
    expectError(await w.client.put(`${RELATIONSHIPS}/123456789012345678`, {}, w.aliceAuth), 404, 10013);
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, {}, w.aliceAuth), 400, 50033);
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.bot.id}`, {}, w.aliceAuth), 400, 50033);
    // Provisional accounts have game friends only, either way round.
    expectError(await w.client.put(`${RELATIONSHIPS}/${guest.user.id}`, {}, w.aliceAuth), 400, 50229);
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, {}, guest.auth), 400, 50229);
    expectInvalidField(await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, { type: 3 }, w.aliceAuth), 'type');
    expectInvalidField(await w.client.put(`${RELATIONSHIPS}/not-an-id`, {}, w.aliceAuth), 'user_id');
    expect(await socialCounts(w.client)).toEqual(before);
  });

  it('needs relationships.write: a read-only token is 403 50001 and stores nothing', async () => {
    const w = await socialWorld();
    const readOnly = await w.token(w.alice.id, 'relationships.read');
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, readOnly), 403, 50001);
    expectError(await w.client.delete(`${RELATIONSHIPS}/${w.bob.id}`, readOnly), 403, 50001);
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, w.botAuth), 403, 20001);
    expect((await socialCounts(w.client)).relationships).toBe(0);
  });

  it('platform friends are limited to 1000: accepting a 1001st is 400 30002 and changes nothing', async () => {
    const w = await socialWorld();
    await w.client.app.ctx.db.write(['relationships'], async (tx) => {
      for (let i = 0; i < 1000; i++)
        void tx.store('relationships').put({
          user_id: w.alice.id,
          application_id: '',
          other_id: String(10n ** 17n + BigInt(i)),
          type: 1,
          since: 0,
        });
    });
    await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, {}, w.bobAuth);
    const before = await socialCounts(w.client);
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, w.aliceAuth), 400, 30002);
    expect(await socialCounts(w.client)).toEqual(before);
    // Game friends have no limit.
    await w.client.put(`${GAME}/${w.alice.id}`, {}, w.bobAuth);
    expect((await w.client.put(`${GAME}/${w.bob.id}`, {}, w.aliceAuth)).status).toBe(204);
  });
});

describe('blocking (PUT with type 2) and unblocking (DELETE)', () => {
  it('a block ends the other side and every game relationship of the pair, with events to each user', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    await w.relate(w.alice.id, w.bob.id, 1, w.application.id);
    const after = await logPosition(w.client);
    expect((await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, { type: 2 }, w.aliceAuth)).status).toBe(204);
    expect((await w.client.get(RELATIONSHIPS, w.aliceAuth)).body).toEqual([
      expect.objectContaining({ id: w.bob.id, type: 2 }),
    ]);
    expect((await w.client.get(RELATIONSHIPS, w.bobAuth)).body).toEqual([]);
    expect((await w.client.get(GAME, w.aliceAuth)).body).toEqual([]);
    expect((await w.client.get(GAME, w.bobAuth)).body).toEqual([]);
    expect(await relationshipEvents(w.client, after)).toEqual([
      { type: 'RELATIONSHIP_UPDATE', to: [w.alice.id], app: undefined, id: w.bob.id, kind: 2 },
      { type: 'RELATIONSHIP_REMOVE', to: [w.bob.id], app: undefined, id: w.alice.id, kind: 1 },
      { type: 'GAME_RELATIONSHIP_REMOVE', to: [w.alice.id], app: w.application.id, id: w.bob.id, kind: 1 },
      { type: 'GAME_RELATIONSHIP_REMOVE', to: [w.bob.id], app: w.application.id, id: w.alice.id, kind: 1 },
    ]);
  });

  it('a block refuses friend requests either way (400 80000, nothing stored); blocking oneself is 400 50033', async () => {
    const w = await socialWorld();
    await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, { type: 2 }, w.aliceAuth);
    const before = await socialCounts(w.client);
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, {}, w.bobAuth), 400, 80000);
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, w.aliceAuth), 400, 80000);
    expectError(await w.client.put(`${GAME}/${w.alice.id}`, {}, w.bobAuth), 400, 80000);
    expectError(await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, { type: 2 }, w.aliceAuth), 400, 50033);
    expect(await socialCounts(w.client)).toEqual(before);
  });

  it('unblocking removes only the block (REMOVE to the blocker) and restores nothing; a mutual block stays on the other side', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, { type: 2 }, w.aliceAuth);
    await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, { type: 2 }, w.bobAuth);
    expect((await w.client.get(RELATIONSHIPS, w.aliceAuth)).body).toEqual([
      expect.objectContaining({ id: w.bob.id, type: 2 }),
    ]);
    const after = await logPosition(w.client);
    expect((await w.client.delete(`${RELATIONSHIPS}/${w.bob.id}`, w.aliceAuth)).status).toBe(204);
    expect((await w.client.get(RELATIONSHIPS, w.aliceAuth)).body).toEqual([]);
    expect((await w.client.get(RELATIONSHIPS, w.bobAuth)).body).toEqual([
      expect.objectContaining({ id: w.alice.id, type: 2 }),
    ]);
    expect(await relationshipEvents(w.client, after)).toEqual([
      { type: 'RELATIONSHIP_REMOVE', to: [w.alice.id], app: undefined, id: w.bob.id, kind: 2 },
    ]);
  });
});

describe('DELETE /users/@me/relationships/{user.id}', () => {
  it('removing a friend, cancelling or rejecting a request removes both sides with RELATIONSHIP_REMOVE to each', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    await w.client.put(`${RELATIONSHIPS}/${w.carol.id}`, {}, w.aliceAuth);
    await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, {}, await w.token(w.dave.id, 'openid sdk.social_layer'));
    const after = await logPosition(w.client);
    expect((await w.client.delete(`${RELATIONSHIPS}/${w.bob.id}`, w.aliceAuth)).status).toBe(204);
    expect((await w.client.delete(`${RELATIONSHIPS}/${w.carol.id}`, w.aliceAuth)).status).toBe(204);
    expect((await w.client.delete(`${RELATIONSHIPS}/${w.dave.id}`, w.aliceAuth)).status).toBe(204);
    expect((await w.client.get(RELATIONSHIPS, w.aliceAuth)).body).toEqual([]);
    expect((await w.client.get(RELATIONSHIPS, w.bobAuth)).body).toEqual([]);
    expect((await w.client.get(RELATIONSHIPS, w.carolAuth)).body).toEqual([]);
    const events = await relationshipEvents(w.client, after);
    expect(events.map((e) => [e.type, e.to, e.kind])).toEqual([
      ['RELATIONSHIP_REMOVE', [w.alice.id], 1],
      ['RELATIONSHIP_REMOVE', [w.bob.id], 1],
      ['RELATIONSHIP_REMOVE', [w.alice.id], 4],
      ['RELATIONSHIP_REMOVE', [w.carol.id], 3],
      ['RELATIONSHIP_REMOVE', [w.alice.id], 3],
      ['RELATIONSHIP_REMOVE', [w.dave.id], 4],
    ]);
  });

  it('nothing to remove is 204 with no event; the game friendship is not touched', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1, w.application.id);
    const before = await socialCounts(w.client);
    expect((await w.client.delete(`${RELATIONSHIPS}/${w.bob.id}`, w.aliceAuth)).status).toBe(204);
    expect((await w.client.delete(`${RELATIONSHIPS}/123456789012345678`, w.aliceAuth)).status).toBe(204);
    expect(await socialCounts(w.client)).toEqual(before);
    expect((await w.client.get(GAME, w.aliceAuth)).body).toEqual([expect.objectContaining({ id: w.bob.id, type: 1 })]);
  });
});

describe('relationship events and the activity RPC', () => {
  it('the RPC host turns the logged RELATIONSHIP_ADD / REMOVE into RELATIONSHIP_UPDATE {type, user} (type 0 on removal)', async () => {
    const w = await socialWorld();
    await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, w.aliceAuth);
    await w.client.delete(`${RELATIONSHIPS}/${w.bob.id}`, w.aliceAuth);
    const session = { user: { id: w.alice.id }, application: { id: w.application.id } } as unknown as RpcSession;
    const toAlice = (await loggedEvents(w.client)).filter(
      (e) => e.audience.user_ids?.includes(w.alice.id) && e.type.startsWith('RELATIONSHIP_'),
    );
    const translated = toAlice.flatMap((e) => translatePlatformEvent(e.type, e.data, session));
    expect(translated.map((t) => [t.event, t.data])).toEqual([
      ['RELATIONSHIP_UPDATE', { type: 4, user: expect.objectContaining({ id: w.bob.id, username: 'bob' }) }],
      ['RELATIONSHIP_UPDATE', { type: 0, user: expect.objectContaining({ id: w.bob.id }) }],
    ]);
  });

  it('no token or secret reaches a relationship event', async () => {
    const w = await socialWorld();
    await w.client.put(`${RELATIONSHIPS}/${w.bob.id}`, {}, w.aliceAuth);
    await w.client.put(`${RELATIONSHIPS}/${w.alice.id}`, {}, w.bobAuth);
    const logged = JSON.stringify(await loggedEvents(w.client));
    for (const secret of w.secrets) expect(logged).not.toContain(secret);
  });
});

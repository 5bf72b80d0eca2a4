// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { expectError, expectInvalidField, loggedEvents, lobbyWorld, storeCounts } from './lobby-fixtures';

const LOBBIES = '/api/v10/lobbies';

describe('PUT/DELETE /lobbies/{id}/members/{user_id} and DELETE .../members/@me', () => {
  it('PUT adds a member (LOBBY_MEMBER_ADD), then updates it (LOBBY_MEMBER_UPDATE), answering the member', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.post(LOBBIES, {}, w.botAuth)).body;
    const added = await w.client.put(
      `${LOBBIES}/${lobby.id}/members/${w.bob.id}`,
      { metadata: { role: 'tank' } },
      w.botAuth,
    );
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ id: w.bob.id, metadata: { role: 'tank' }, flags: 0 });
    const updated = await w.client.put(`${LOBBIES}/${lobby.id}/members/${w.bob.id}`, { flags: 1 }, w.botAuth);
    expect(updated.body).toEqual({ id: w.bob.id, metadata: { role: 'tank' }, flags: 1 });
    expect((await loggedEvents(w.client)).map((e) => e.type)).toEqual([
      'LOBBY_CREATE',
      'LOBBY_MEMBER_ADD',
      'LOBBY_MEMBER_UPDATE',
    ]);
    expectError(await w.client.put(`${LOBBIES}/${lobby.id}/members/${w.bob.id}`, {}, w.bobAuth), 403, 20002);
    expectError(await w.client.put(`${LOBBIES}/${lobby.id}/members/123`, {}, w.botAuth), 404, 10013);
    expectInvalidField(await w.client.put(`${LOBBIES}/${lobby.id}/members/bob`, {}, w.botAuth), 'user_id');
  });

  it('DELETE of a member is safe when the user is not a member, and 404 10031 when the lobby does not exist', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.post(LOBBIES, { members: [{ id: w.alice.id }] }, w.botAuth)).body;
    expect((await w.client.delete(`${LOBBIES}/${lobby.id}/members/${w.alice.id}`, w.botAuth)).status).toBe(204);
    expect((await w.client.delete(`${LOBBIES}/${lobby.id}/members/${w.alice.id}`, w.botAuth)).status).toBe(204);
    expect((await w.client.delete(`${LOBBIES}/${lobby.id}/members/${w.carol.id}`, w.botAuth)).status).toBe(204);
    expectError(await w.client.delete(`${LOBBIES}/777/members/${w.alice.id}`, w.botAuth), 404, 10031);
    const removes = await loggedEvents(w.client, 'LOBBY_MEMBER_REMOVE');
    expect(removes.length).toBe(1);
    // The removed member hears of its own removal.
    expect(removes[0].audience.user_ids).toEqual([w.alice.id]);
  });

  it('DELETE .../members/@me: a user leaves (safe when not a member); a bot is 403 20001', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.put(LOBBIES, { secret: 's' }, w.aliceAuth)).body;
    await w.client.put(LOBBIES, { secret: 's' }, w.bobAuth);
    expect((await w.client.delete(`${LOBBIES}/${lobby.id}/members/@me`, w.bobAuth)).status).toBe(204);
    expect((await w.client.delete(`${LOBBIES}/${lobby.id}/members/@me`, w.bobAuth)).status).toBe(204);
    expect(
      (await w.client.get(`${LOBBIES}/${lobby.id}`, w.aliceAuth)).body.members.map((m: { id: string }) => m.id),
    ).toEqual([w.alice.id]);
    expectError(await w.client.get(`${LOBBIES}/${lobby.id}`, w.bobAuth), 403, 50001);
    expectError(await w.client.delete(`${LOBBIES}/${lobby.id}/members/@me`, w.botAuth), 403, 20001);
    expectError(await w.client.delete(`${LOBBIES}/888/members/@me`, w.aliceAuth), 404, 10031);
  });
});

describe('POST /lobbies/{id}/members/bulk: up to 25 members in one request', () => {
  it('upserts and removes in one request, answering only the upserted members', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.post(LOBBIES, { members: [{ id: w.alice.id }] }, w.botAuth)).body;
    const reply = await w.client.post(
      `${LOBBIES}/${lobby.id}/members/bulk`,
      [
        { id: w.bob.id, metadata: { seat: '1' } },
        { id: w.carol.id, flags: 1 },
        { id: w.alice.id, remove_member: true },
      ],
      w.botAuth,
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      { id: w.bob.id, metadata: { seat: '1' }, flags: 0 },
      { id: w.carol.id, metadata: null, flags: 1 },
    ]);
    const members = (await w.client.get(`${LOBBIES}/${lobby.id}`, w.botAuth)).body.members.map(
      (m: { id: string }) => m.id,
    );
    expect(members.sort()).toEqual([w.bob.id, w.carol.id].sort());
    const types = (await loggedEvents(w.client)).map((e) => e.type);
    expect(types).toEqual(['LOBBY_CREATE', 'LOBBY_MEMBER_REMOVE', 'LOBBY_MEMBER_ADD', 'LOBBY_MEMBER_ADD']);
  });

  it('bulk remove: removing a user who is not a member is safe and not answered', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.post(LOBBIES, { members: [{ id: w.alice.id }, { id: w.bob.id }] }, w.botAuth)).body;
    const reply = await w.client.post(
      `${LOBBIES}/${lobby.id}/members/bulk`,
      [
        { id: w.bob.id, remove_member: true },
        { id: w.carol.id, remove_member: true },
      ],
      w.botAuth,
    );
    expect(reply.body).toEqual([]);
    expect((await w.client.get(`${LOBBIES}/${lobby.id}`, w.botAuth)).body.members).toEqual([
      { id: w.alice.id, metadata: null, flags: 0 },
    ]);
  });

  it('26 entries is 400 50035 naming the field, and nothing is stored; 0 entries too', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.post(LOBBIES, {}, w.botAuth)).body;
    const before = await storeCounts(w.client);
    const entries = [w.alice, w.bob, w.carol].map((u) => ({ id: u.id }));
    const many = Array.from({ length: 26 }, (_, i) => entries[i % 3]);
    expectInvalidField(await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, many, w.botAuth), 'members');
    expectInvalidField(
      await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, { members: many }, w.botAuth),
      'members',
    );
    expectInvalidField(await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, [], w.botAuth), 'members');
    expectInvalidField(
      await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, [{ id: w.bob.id, remove_member: 'yes' }], w.botAuth),
      'members.0.remove_member',
    );
    expect(await storeCounts(w.client)).toEqual(before);
    const exactly25 = await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, many.slice(0, 25), w.botAuth);
    expect(exactly25.status).toBe(200);
  });

  it('an unknown user id is 404 10013 and nothing of the request is stored', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.post(LOBBIES, {}, w.botAuth)).body;
    const before = await storeCounts(w.client);
    expectError(
      await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, [{ id: w.bob.id }, { id: '31337' }], w.botAuth),
      404,
      10013,
    );
    expect(await storeCounts(w.client)).toEqual(before);
  });

  it('a user already at the per-application lobby limit is silently dropped from the upsert set', async () => {
    const w = await lobbyWorld();
    // Carol is a member of 100 lobbies of this application already.
    await w.client.db.putAll(
      'lobby_members',
      Array.from({ length: 100 }, (_, i) => ({
        lobby_id: String(5_000_000 + i),
        user_id: w.carol.id,
        application_id: w.application.id,
        metadata: null,
        flags: 0,
        joined_at: 0,
      })),
    );
    const lobby = (await w.client.post(LOBBIES, {}, w.botAuth)).body;
    const reply = await w.client.post(
      `${LOBBIES}/${lobby.id}/members/bulk`,
      [{ id: w.carol.id }, { id: w.bob.id }],
      w.botAuth,
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([{ id: w.bob.id, metadata: null, flags: 0 }]);
    expect(
      (await w.client.get(`${LOBBIES}/${lobby.id}`, w.botAuth)).body.members.map((m: { id: string }) => m.id),
    ).toEqual([w.bob.id]);
  });

  it("only the bot of the lobby's application: a user is 403 20002, another application 404 10031", async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.post(LOBBIES, {}, w.botAuth)).body;
    expectError(
      await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, [{ id: w.bob.id }], w.aliceAuth),
      403,
      20002,
    );
    expectError(
      await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, [{ id: w.bob.id }], w.otherBotAuth),
      404,
      10031,
    );
  });
});

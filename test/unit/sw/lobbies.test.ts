// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  expectError,
  expectInvalidField,
  loggedEvents,
  lobbyWorld,
  metadataOfLength,
  storeCounts,
} from './lobby-fixtures';
import { ON_SERVER } from '../app-harness';

const LOBBIES = '/api/v10/lobbies';

describe('PUT /lobbies: create or join by secret', () => {
  it('creates a lobby, and a second user with the same secret joins that same lobby', async () => {
    const w = await lobbyWorld();
    const created = await w.client.put(
      LOBBIES,
      { secret: 'match-1', lobby_metadata: { map: 'dust' }, member_metadata: { team: 'red' } },
      w.aliceAuth,
    );
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      application_id: w.application.id,
      metadata: { map: 'dust' },
      members: [{ id: w.alice.id, metadata: { team: 'red' }, flags: 0 }],
      flags: 0,
    });
    const joined = await w.client.put(LOBBIES, { secret: 'match-1', member_metadata: { team: 'blue' } }, w.bobAuth);
    expect(joined.status).toBe(200);
    expect(joined.body.id).toBe(created.body.id);
    expect(joined.body.members.map((m: { id: string }) => m.id)).toEqual([w.alice.id, w.bob.id]);
    expect(await w.client.db.count('lobbies')).toBe(1);
  });

  it("joining again updates the caller's member metadata; lobby metadata, flags and idle timeout apply only at creation", async () => {
    const w = await lobbyWorld();
    const created = await w.client.put(
      LOBBIES,
      { secret: 's', lobby_metadata: { a: '1' }, flags: 1, idle_timeout_seconds: 30 },
      w.aliceAuth,
    );
    expect(created.body.flags).toBe(1);
    const again = await w.client.put(
      LOBBIES,
      {
        secret: 's',
        lobby_metadata: { a: '2' },
        member_metadata: { ready: 'yes' },
        flags: 0,
        idle_timeout_seconds: 90,
      },
      w.aliceAuth,
    );
    expect(again.body.id).toBe(created.body.id);
    expect(again.body.metadata).toEqual({ a: '1' });
    expect(again.body.flags).toBe(1);
    expect(again.body.members).toEqual([{ id: w.alice.id, metadata: { ready: 'yes' }, flags: 0 }]);
    expect((await w.client.db.get('lobbies', created.body.id))!.idle_timeout_seconds).toBe(30);
    expectInvalidField(await w.client.put(LOBBIES, { secret: 't', flags: 2 }, w.aliceAuth), 'flags');
    expect((await loggedEvents(w.client, 'LOBBY_MEMBER_UPDATE')).length).toBe(1);
  });

  it('a secret is unique per application: the same secret in another application is another lobby', async () => {
    const w = await lobbyWorld();
    const mine = await w.client.put(LOBBIES, { secret: 'shared' }, w.aliceAuth);
    const theirs = await w.client.put(LOBBIES, { secret: 'shared' }, w.aliceOtherAuth);
    expect(theirs.status).toBe(200);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.application_id).toBe(w.otherApplication.id);
  });

  it('secret: at most 250 characters (251 is 50035 naming secret, nothing stored); required', async () => {
    const w = await lobbyWorld();
    const before = await storeCounts(w.client);
    expectInvalidField(await w.client.put(LOBBIES, { secret: 'x'.repeat(251) }, w.aliceAuth), 'secret');
    expectInvalidField(await w.client.put(LOBBIES, {}, w.aliceAuth), 'secret');
    expect(await storeCounts(w.client)).toEqual(before);
    expect((await w.client.put(LOBBIES, { secret: 'x'.repeat(250) }, w.aliceAuth)).status).toBe(200);
  });

  it('idle_timeout_seconds: 5 to 604800; 4 and 604801 are 50035', async () => {
    const w = await lobbyWorld();
    expectInvalidField(
      await w.client.put(LOBBIES, { secret: 'a', idle_timeout_seconds: 4 }, w.aliceAuth),
      'idle_timeout_seconds',
    );
    expectInvalidField(
      await w.client.put(LOBBIES, { secret: 'a', idle_timeout_seconds: 604_801 }, w.aliceAuth),
      'idle_timeout_seconds',
    );
    expectInvalidField(
      await w.client.put(LOBBIES, { secret: 'a', idle_timeout_seconds: 10.5 }, w.aliceAuth),
      'idle_timeout_seconds',
    );
    expectInvalidField(await w.client.post(LOBBIES, { idle_timeout_seconds: 4 }, w.botAuth), 'idle_timeout_seconds');
    expect(await w.client.db.count('lobbies')).toBe(0);
    expect((await w.client.put(LOBBIES, { secret: 'a', idle_timeout_seconds: 5 }, w.aliceAuth)).status).toBe(200);
    expect((await w.client.put(LOBBIES, { secret: 'b', idle_timeout_seconds: 604_800 }, w.aliceAuth)).status).toBe(200);
  });

  it('metadata: at most 1000 characters in all, keys and values (1001 is 50035 naming the field)', async () => {
    const w = await lobbyWorld();
    const over = metadataOfLength(1001);
    expectInvalidField(
      await w.client.put(LOBBIES, { secret: 'a', lobby_metadata: over }, w.aliceAuth),
      'lobby_metadata',
    );
    expectInvalidField(
      await w.client.put(LOBBIES, { secret: 'a', member_metadata: over }, w.aliceAuth),
      'member_metadata',
    );
    expectInvalidField(await w.client.post(LOBBIES, { metadata: over }, w.botAuth), 'metadata');
    expectInvalidField(
      await w.client.post(LOBBIES, { members: [{ id: w.bob.id, metadata: over }] }, w.botAuth),
      'members.0.metadata',
    );
    expectInvalidField(
      await w.client.put(LOBBIES, { secret: 'a', lobby_metadata: { n: 1 } }, w.aliceAuth),
      'lobby_metadata.n',
    );
    expect(await w.client.db.count('lobbies')).toBe(0);
    const exact = await w.client.put(
      LOBBIES,
      { secret: 'a', lobby_metadata: metadataOfLength(1000), member_metadata: metadataOfLength(1000) },
      w.aliceAuth,
    );
    expect(exact.status).toBe(200);
  });

  it('metadata is a dictionary: an array (stored as {"0": ...} before) is 50035 naming the field on every lobby and member route, and nothing is stored', async () => {
    const w = await lobbyWorld();
    const array = ['x', 'y'];
    expectInvalidField(
      await w.client.put(LOBBIES, { secret: 'a', lobby_metadata: array }, w.aliceAuth),
      'lobby_metadata',
    );
    expectInvalidField(
      await w.client.put(LOBBIES, { secret: 'a', member_metadata: array }, w.aliceAuth),
      'member_metadata',
    );
    expectInvalidField(await w.client.post(LOBBIES, { metadata: array }, w.botAuth), 'metadata');
    expectInvalidField(
      await w.client.post(LOBBIES, { members: [{ id: w.bob.id, metadata: [] }] }, w.botAuth),
      'members.0.metadata',
    );
    expect(await storeCounts(w.client)).toEqual({ lobbies: 0, members: 0, messages: 0, events: 0 });
    const lobby = (await w.client.put(LOBBIES, { secret: 'a', lobby_metadata: { mode: 'duo' } }, w.aliceAuth)).body;
    const before = await storeCounts(w.client);
    expectInvalidField(await w.client.patch(`${LOBBIES}/${lobby.id}`, { metadata: array }, w.botAuth), 'metadata');
    expectInvalidField(
      await w.client.put(`${LOBBIES}/${lobby.id}/members/${w.bob.id}`, { metadata: array }, w.botAuth),
      'metadata',
    );
    expectInvalidField(
      await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, [{ id: w.bob.id, metadata: array }], w.botAuth),
      'members.0.metadata',
    );
    expect(await storeCounts(w.client)).toEqual(before);
    expect((await w.client.db.get('lobbies', lobby.id))!.metadata).toEqual({ mode: 'duo' });
  });

  it('wrong token kind: a bot on PUT is 403 20001, a user on POST is 403 20002; a token without lobbies.write is 403 50001', async () => {
    const w = await lobbyWorld();
    expectError(await w.client.put(LOBBIES, { secret: 'a' }, w.botAuth), 403, 20001);
    expectError(await w.client.post(LOBBIES, {}, w.aliceAuth), 403, 20002);
    const narrow = await lobbyWorld('identify');
    expectError(await narrow.client.put(LOBBIES, { secret: 'a' }, narrow.aliceAuth), 403, 50001);
    expectError(await w.client.put(LOBBIES, { secret: 'a' }), 401, 0);
    expect(await w.client.db.count('lobbies')).toBe(0);
  });

  it('a user already in 100 lobbies of the application cannot create or join another (400 30060, nothing stored)', async () => {
    const w = await lobbyWorld();
    for (let batch = 0; batch < 4; batch++) {
      const replies = await Promise.all(
        Array.from({ length: 25 }, (_, i) => w.client.put(LOBBIES, { secret: `s${batch * 25 + i}` }, w.aliceAuth)),
      );
      expect(replies.every((r) => r.status === 200)).toBe(true);
    }
    const before = await storeCounts(w.client);
    expectError(await w.client.put(LOBBIES, { secret: 'one-too-many' }, w.aliceAuth), 400, 30060);
    const bobs = await w.client.put(LOBBIES, { secret: 'bobs' }, w.bobAuth);
    expectError(await w.client.put(LOBBIES, { secret: 'bobs' }, w.aliceAuth), 400, 30060);
    expectError(await w.client.put(`${LOBBIES}/${bobs.body.id}/members/${w.alice.id}`, {}, w.botAuth), 400, 30060);
    expectError(await w.client.post(LOBBIES, { members: [{ id: w.alice.id }] }, w.botAuth), 400, 30060);
    expect(await storeCounts(w.client)).toEqual({
      ...before,
      lobbies: before.lobbies + 1,
      members: before.members + 1,
      events: before.events + 1,
    });
    // The limit is per application: another game's lobby is still open to her.
    expect((await w.client.put(LOBBIES, { secret: 'elsewhere' }, w.aliceOtherAuth)).status).toBe(200);
  });

  it('a lobby holds at most 1000 members: the 1001st is 400 30059 and nothing is stored', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.put(LOBBIES, { secret: 'full' }, w.aliceAuth)).body;
    const { db } = w.client;
    await db.putAll(
      'lobby_members',
      Array.from({ length: 999 }, (_, i) => ({
        lobby_id: lobby.id,
        user_id: String(9_000_000 + i),
        application_id: w.application.id,
        metadata: null,
        flags: 0,
        joined_at: 0,
      })),
    );
    const record = (await db.get('lobbies', lobby.id))!;
    await db.put('lobbies', { ...record, member_count: 1000 });
    const before = await storeCounts(w.client);
    expectError(await w.client.put(LOBBIES, { secret: 'full' }, w.bobAuth), 400, 30059);
    expectError(await w.client.put(`${LOBBIES}/${lobby.id}/members/${w.bob.id}`, {}, w.botAuth), 400, 30059);
    expectError(await w.client.post(`${LOBBIES}/${lobby.id}/members/bulk`, [{ id: w.bob.id }], w.botAuth), 400, 30059);
    expect(await storeCounts(w.client)).toEqual(before);
    // Room is made by a removal in the same bulk request.
    const swap = await w.client.post(
      `${LOBBIES}/${lobby.id}/members/bulk`,
      [{ id: w.bob.id }, { id: w.alice.id, remove_member: true }],
      w.botAuth,
    );
    expect(swap.status).toBe(200);
    expect(swap.body).toEqual([{ id: w.bob.id, metadata: null, flags: 0 }]);
  });
});

describe("POST /lobbies and GET/PATCH/DELETE /lobbies/{id} (the application's bot)", () => {
  it('the bot creates a lobby (201 Created) with up to 25 members; 26 is 50035 naming members; an unknown user is 404 10013', async () => {
    const w = await lobbyWorld();
    const created = await w.client.post(
      LOBBIES,
      {
        metadata: { mode: 'ranked' },
        members: [
          { id: w.alice.id, flags: 1 },
          { id: w.bob.id, metadata: { x: 'y' } },
        ],
        idle_timeout_seconds: 60,
      },
      w.botAuth,
    );
    expect(created.status).toBe(201);
    expect(created.body.members).toEqual([
      { id: w.alice.id, metadata: null, flags: 1 },
      { id: w.bob.id, metadata: { x: 'y' }, flags: 0 },
    ]);
    const before = await storeCounts(w.client);
    const many = Array.from({ length: 26 }, (_, i) => ({ id: String(1000 + i) }));
    expectInvalidField(await w.client.post(LOBBIES, { members: many }, w.botAuth), 'members');
    expectError(
      await w.client.post(LOBBIES, { members: [{ id: w.alice.id }, { id: '123456789' }] }, w.botAuth),
      404,
      10013,
    );
    expectInvalidField(await w.client.post(LOBBIES, { members: [{ id: 'not-an-id' }] }, w.botAuth), 'members.0.id');
    expectInvalidField(
      await w.client.post(LOBBIES, { members: [{ id: w.bob.id, flags: 2 }] }, w.botAuth),
      'members.0.flags',
    );
    expect(await storeCounts(w.client)).toEqual(before);
  });

  it('GET: the bot and members read the lobby; a non-member is 403 50001; another application is 404 10031; a bad id is 50035', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.put(LOBBIES, { secret: 's' }, w.aliceAuth)).body;
    expect((await w.client.get(`${LOBBIES}/${lobby.id}`, w.botAuth)).body).toEqual(lobby);
    expect((await w.client.get(`/api/lobbies/${lobby.id}`, w.aliceAuth)).body).toEqual(lobby);
    expectError(await w.client.get(`${LOBBIES}/${lobby.id}`, w.bobAuth), 403, 50001);
    expectError(await w.client.get(`${LOBBIES}/${lobby.id}`, w.otherBotAuth), 404, 10031);
    expectError(await w.client.get(`${LOBBIES}/${lobby.id}`, w.aliceOtherAuth), 404, 10031);
    expectError(await w.client.get(`${LOBBIES}/42`, w.botAuth), 404, 10031);
    expectInvalidField(await w.client.get(`${LOBBIES}/abc`, w.botAuth), 'lobby_id');
  });

  it('PATCH overwrites metadata, replaces members (members left out are removed) and sets the idle timeout', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.post(LOBBIES, { members: [{ id: w.alice.id }, { id: w.bob.id }] }, w.botAuth)).body;
    const patched = await w.client.patch(
      `${LOBBIES}/${lobby.id}`,
      {
        metadata: { round: '2' },
        members: [{ id: w.bob.id, flags: 1 }, { id: w.carol.id }],
        idle_timeout_seconds: 30,
        flags: 1,
      },
      w.botAuth,
    );
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toEqual({ round: '2' });
    expect(patched.body.flags).toBe(1);
    expect(patched.body.members).toEqual([
      { id: w.bob.id, metadata: null, flags: 1 },
      { id: w.carol.id, metadata: null, flags: 0 },
    ]);
    expect((await w.client.db.get('lobbies', lobby.id))!.idle_timeout_seconds).toBe(30);
    const types = (await loggedEvents(w.client)).map((e) => e.type).filter((t) => t !== 'LOBBY_CREATE');
    expect(types).toEqual(['LOBBY_MEMBER_REMOVE', 'LOBBY_MEMBER_UPDATE', 'LOBBY_MEMBER_ADD', 'LOBBY_UPDATE']);
    expectError(await w.client.patch(`${LOBBIES}/${lobby.id}`, { metadata: null }, w.aliceAuth), 403, 20002);
    expectError(await w.client.patch(`${LOBBIES}/${lobby.id}`, { metadata: null }, w.otherBotAuth), 404, 10031);
    const cleared = await w.client.patch(`${LOBBIES}/${lobby.id}`, { metadata: null }, w.botAuth);
    expect(cleared.body.metadata).toBeNull();
  });

  it('DELETE is idempotent: 204, and 204 again once deleted; the lobby, its members and messages are gone', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.put(LOBBIES, { secret: 's' }, w.aliceAuth)).body;
    await w.client.post(`${LOBBIES}/${lobby.id}/messages`, { content: 'hi' }, w.aliceAuth);
    expectError(await w.client.delete(`${LOBBIES}/${lobby.id}`, w.aliceAuth), 403, 20002);
    expectError(await w.client.delete(`${LOBBIES}/${lobby.id}`, w.otherBotAuth), 404, 10031);
    expect((await w.client.delete(`${LOBBIES}/${lobby.id}`, w.botAuth)).status).toBe(204);
    expect((await w.client.delete(`${LOBBIES}/${lobby.id}`, w.botAuth)).status).toBe(204);
    expectError(await w.client.get(`${LOBBIES}/${lobby.id}`, w.botAuth), 404, 10031);
    const counts = await storeCounts(w.client);
    expect([counts.lobbies, counts.members, counts.messages]).toEqual([0, 0, 0]);
    const deletes = await loggedEvents(w.client, 'LOBBY_DELETE');
    expect(deletes.length).toBe(1);
    expect(deletes[0].audience).toEqual({ user_ids: [w.alice.id], application_id: w.application.id });
    // The secret is free again.
    expect((await w.client.put(LOBBIES, { secret: 's' }, w.aliceAuth)).body.id).not.toBe(lobby.id);
  });
});

describe('idle lobbies are removed after their idle timeout, judged by the platform clock', () => {
  it('a lobby whose last member left is gone (404 10031) once the sandbox clock passes its idle timeout', async () => {
    const w = await lobbyWorld();
    const start = Date.parse('2026-01-01T00:00:00Z');
    await w.client.put('/sandbox/clock', { now: new Date(start).toISOString() });
    const lobby = (await w.client.put(LOBBIES, { secret: 'idle', idle_timeout_seconds: 60 }, w.aliceAuth)).body;
    await w.client.post(`${LOBBIES}/${lobby.id}/messages`, { content: 'bye' }, w.aliceAuth);
    expect((await w.client.delete(`${LOBBIES}/${lobby.id}/members/@me`, w.aliceAuth)).status).toBe(204);
    await w.client.put('/sandbox/clock', { now: new Date(start + 59_999).toISOString() });
    expect((await w.client.get(`${LOBBIES}/${lobby.id}`, w.botAuth)).body.members).toEqual([]);
    await w.client.put('/sandbox/clock', { now: new Date(start + 60_000).toISOString() });
    expectError(await w.client.get(`${LOBBIES}/${lobby.id}`, w.botAuth), 404, 10031);
    const counts = await storeCounts(w.client);
    expect([counts.lobbies, counts.messages]).toEqual([0, 0]);
    const deletes = await loggedEvents(w.client, 'LOBBY_DELETE');
    expect(deletes.map((e) => (e.data as { id: string }).id)).toEqual([lobby.id]);
    expect(deletes[0].audience.application_id).toBe(w.application.id);
    // The secret names a new lobby now.
    expect((await w.client.put(LOBBIES, { secret: 'idle' }, w.aliceAuth)).body.id).not.toBe(lobby.id);
  });

  it('a lobby the bot created empty is idle from its creation; a member joining stops the countdown', async () => {
    const w = await lobbyWorld();
    const start = Date.parse('2026-03-01T00:00:00Z');
    await w.client.put('/sandbox/clock', { now: new Date(start).toISOString() });
    const empty = (await w.client.post(LOBBIES, { idle_timeout_seconds: 5 }, w.botAuth)).body;
    const kept = (await w.client.post(LOBBIES, { idle_timeout_seconds: 5 }, w.botAuth)).body;
    await w.client.put(`${LOBBIES}/${kept.id}/members/${w.bob.id}`, {}, w.botAuth);
    await w.client.put('/sandbox/clock', { now: new Date(start + 3_600_000).toISOString() });
    expectError(await w.client.get(`${LOBBIES}/${empty.id}`, w.botAuth), 404, 10031);
    expect((await w.client.get(`${LOBBIES}/${kept.id}`, w.botAuth)).status).toBe(200);
  });

  it('a write after the deadline sees the lobby gone too (404 10031)', async () => {
    const w = await lobbyWorld();
    const start = Date.parse('2026-05-01T00:00:00Z');
    await w.client.put('/sandbox/clock', { now: new Date(start).toISOString() });
    const lobby = (await w.client.post(LOBBIES, { idle_timeout_seconds: 5 }, w.botAuth)).body;
    await w.client.put('/sandbox/clock', { now: new Date(start + 5_000).toISOString() });
    expectError(await w.client.put(`${LOBBIES}/${lobby.id}/members/${w.bob.id}`, {}, w.botAuth), 404, 10031);
    expectError(await w.client.post(`${LOBBIES}/${lobby.id}/messages`, { content: 'x' }, w.botAuth), 404, 10031);
  });

  it('a join secret stops joining 30 days after its lobby was created; the old lobby stays', async () => {
    const w = await lobbyWorld();
    const start = Date.parse('2026-06-01T00:00:00Z');
    await w.client.put('/sandbox/clock', { now: new Date(start).toISOString() });
    const old = (await w.client.put(LOBBIES, { secret: 'monthly' }, w.aliceAuth)).body;
    await w.client.put('/sandbox/clock', { now: new Date(start + 30 * 86_400_000 - 1).toISOString() });
    expect((await w.client.put(LOBBIES, { secret: 'monthly' }, w.bobAuth)).body.id).toBe(old.id);
    await w.client.put('/sandbox/clock', { now: new Date(start + 30 * 86_400_000).toISOString() });
    const fresh = (await w.client.put(LOBBIES, { secret: 'monthly' }, w.carolAuth)).body;
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.members.map((m: { id: string }) => m.id)).toEqual([w.carol.id]);
    expect((await w.client.get(`${LOBBIES}/${old.id}`, w.botAuth)).body.members.length).toBe(2);
  });
});

describe('lobby events are appended in the same transaction, with the members of the moment as audience', () => {
  it('each change appends one event to every member and the application, and never a token', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.put(LOBBIES, { secret: 's' }, w.aliceAuth)).body;
    await w.client.put(LOBBIES, { secret: 's' }, w.bobAuth);
    await w.client.post(`${LOBBIES}/${lobby.id}/messages`, { content: 'hello' }, w.bobAuth);
    await w.client.put(`${LOBBIES}/${lobby.id}/members/${w.bob.id}`, { metadata: { k: 'v' } }, w.botAuth);
    await w.client.patch(`${LOBBIES}/${lobby.id}`, { metadata: { m: '1' } }, w.botAuth);
    await w.client.delete(`${LOBBIES}/${lobby.id}/members/${w.bob.id}`, w.botAuth);
    await w.client.delete(`${LOBBIES}/${lobby.id}`, w.botAuth);
    const events = await loggedEvents(w.client);
    const both = [w.alice.id, w.bob.id].sort();
    const summary = events.map((e) => [e.type, [...(e.audience.user_ids ?? [])].sort(), e.audience.application_id]);
    expect(summary).toEqual([
      ['LOBBY_CREATE', [w.alice.id], w.application.id],
      ['LOBBY_MEMBER_ADD', both, w.application.id],
      ['LOBBY_MESSAGE_CREATE', both, w.application.id],
      ['LOBBY_MEMBER_UPDATE', both, w.application.id],
      ['LOBBY_UPDATE', both, w.application.id],
      ['LOBBY_MEMBER_REMOVE', both, w.application.id],
      ['LOBBY_DELETE', [w.alice.id], w.application.id],
    ]);
    expect(events[1].data).toEqual({ lobby_id: lobby.id, member: { id: w.bob.id, metadata: null, flags: 0 } });
    expect((events[2].data as { content: string }).content).toBe('hello');
    expect(events.every((e) => e.channels.includes('gateway'))).toBe(true);
    const log = JSON.stringify(events);
    for (const secret of w.secrets) expect(log).not.toContain(secret);
    // The server's announcements stay inside workerd, where its gateway hears them.
    if (!ON_SERVER)
      expect(w.client.announcements.filter((a) => a.type === 'events').length).toBeGreaterThanOrEqual(events.length);
  });

  it('a failed request changes nothing: no record and no event is stored on any error', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.put(LOBBIES, { secret: 's' }, w.aliceAuth)).body;
    const before = await storeCounts(w.client);
    const failures = [
      await w.client.put(LOBBIES, { secret: 's', member_metadata: metadataOfLength(1001) }, w.bobAuth),
      await w.client.put(LOBBIES, { secret: 7 }, w.bobAuth),
      await w.client.request('PUT', LOBBIES, {
        raw: '{nope',
        token: w.bobAuth,
        headers: { 'Content-Type': 'application/json' },
      }),
      await w.client.post(LOBBIES, { members: [{ id: w.bob.id }, { id: '99' }] }, w.botAuth),
      await w.client.patch(`${LOBBIES}/${lobby.id}`, { members: [{ id: w.bob.id }, { id: '99' }] }, w.botAuth),
      await w.client.put(`${LOBBIES}/${lobby.id}/members/99`, {}, w.botAuth),
      await w.client.post(`${LOBBIES}/${lobby.id}/messages`, { content: '' }, w.aliceAuth),
      await w.client.post(`${LOBBIES}/${lobby.id}/messages`, { content: 'hi' }, w.bobAuth),
      await w.client.delete(`${LOBBIES}/${lobby.id}/members/${w.alice.id}`, w.otherBotAuth),
    ];
    for (const reply of failures) {
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
    }
    expect(await storeCounts(w.client)).toEqual(before);
  });
});

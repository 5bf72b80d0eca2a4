// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createPlatformContext } from '../../../src/platform/core/context';
import { hashSecret } from '../../../src/platform/core/secrets';
import { SNOWFLAKE_WORKERS } from '../../../src/platform/core/snowflake';
import { expectError, loggedEvents, lobbyWorld } from './lobby-fixtures';
import { openPlatformStorage } from '../../../src/store/indexeddb/open';
import { lobbyEntryKey } from '../../../src/platform/lobbies/lobby-read-cache';

const LOBBIES = '/api/v10/lobbies';
const HOUR = 3_600_000;

/** A lobby of alice and bob with `count` messages, read once so that the cache holds it. */
async function cachedLobby(count = 3) {
  const w = await lobbyWorld();
  const lobby = (await w.client.put(LOBBIES, { secret: 'chat' }, w.aliceAuth)).body;
  await w.client.put(LOBBIES, { secret: 'chat' }, w.bobAuth);
  const messages = `${LOBBIES}/${lobby.id}/messages`;
  for (let i = 0; i < count; i++) await w.client.post(messages, { content: `m${i}` }, w.aliceAuth);
  const first = await w.client.get(`${messages}?limit=200`, w.bobAuth);
  expect(first.status).toBe(200);
  const cache = w.client.app.ctx.cache!;
  expect(cache.get(lobbyEntryKey(lobby.id)), 'the read left the lobby in the cache').toBeDefined();
  return { ...w, lobby, messages, first, cache };
}

describe('the lobby message read cache of the service worker stays coherent with every write', () => {
  it('a repeated read answers the same bytes from memory, and a new message is there at once', async () => {
    const w = await cachedLobby();
    const again = await w.client.get(`${w.messages}?limit=200`, w.bobAuth);
    expect(again.body).toEqual(w.first.body);
    expect(again.headers.get('content-type')).toBe('application/json');
    await w.client.post(w.messages, { content: 'fresh' }, w.aliceAuth);
    const after = await w.client.get(`${w.messages}?limit=200`, w.bobAuth);
    expect(after.body.map((m: { content: string }) => m.content)).toEqual(['fresh', 'm2', 'm1', 'm0']);
  });

  it('limit applies to the cached messages too: limit=2 is the newest 2', async () => {
    const w = await cachedLobby();
    const two = await w.client.get(`${w.messages}?limit=2`, w.bobAuth);
    expect(two.body.map((m: { content: string }) => m.content)).toEqual(['m2', 'm1']);
  });

  it('a member who left is 403 50001 at once, although their read was cached', async () => {
    const w = await cachedLobby();
    expect((await w.client.delete(`${LOBBIES}/${w.lobby.id}/members/@me`, w.bobAuth)).status).toBe(204);
    expectError(await w.client.get(w.messages, w.bobAuth), 403, 50001);
  });

  it('a token deleted by any write of this connection is 401 at once (the caller was cached)', async () => {
    const w = await cachedLobby();
    const hash = await hashSecret(w.bobAuth.slice('Bearer '.length));
    // Straight into the store, as no route would: the cache sees every read-write transaction.
    await w.client.db.delete('tokens', hash);
    expectError(await w.client.get(w.messages, w.bobAuth), 401, 0);
  });

  it('an access token that expired on the platform clock is 401, although its caller was cached', async () => {
    const w = await cachedLobby();
    // Moving the clock in memory writes nothing: only the cached expiry can refuse the token.
    w.client.app.ctx.clock.set({ frozenAt: Date.now() + 400 * 24 * HOUR });
    expectError(await w.client.get(w.messages, w.bobAuth), 401, 0);
  });

  it('a cached read has no time window either: 73 hours later it answers the same newest messages', async () => {
    const w = await cachedLobby();
    const before = await w.client.get(`${w.messages}?limit=200`, w.botAuth);
    expect(before.body).toHaveLength(3);
    w.client.app.ctx.clock.set({ frozenAt: Date.now() + 73 * HOUR });
    const later = await w.client.get(`${w.messages}?limit=200`, w.botAuth);
    expect(later.status).toBe(200);
    expect(later.body).toEqual(before.body);
  });

  it('an empty lobby past its idle deadline is removed first (LOBBY_DELETE), even when it was cached', async () => {
    const w = await lobbyWorld();
    const lobby = (await w.client.post(LOBBIES, { idle_timeout_seconds: 5 }, w.botAuth)).body;
    const messages = `${LOBBIES}/${lobby.id}/messages`;
    expect((await w.client.get(messages, w.botAuth)).body).toEqual([]);
    expect(w.client.app.ctx.cache!.get(lobbyEntryKey(lobby.id))).toBeDefined();
    w.client.app.ctx.clock.set({ frozenAt: Date.now() + 60_000 });
    expectError(await w.client.get(messages, w.botAuth), 404, 10031);
    expect((await loggedEvents(w.client, 'LOBBY_DELETE')).map((e) => (e.data as { id: string }).id)).toEqual([
      lobby.id,
    ]);
  });

  it("a write that changes none of the records it was read from keeps it: the clock, another lobby, another lobby's message", async () => {
    const w = await cachedLobby();
    const entry = w.cache.get(lobbyEntryKey(w.lobby.id));
    await w.client.put('/sandbox/clock', { now: new Date(Date.now() + 60_000).toISOString() });
    expect(w.cache.get(lobbyEntryKey(w.lobby.id)), 'the clock lives in meta only').toBe(entry);
    const other = (await w.client.put(LOBBIES, { secret: 'elsewhere' }, w.aliceAuth)).body;
    await w.client.post(`${LOBBIES}/${other.id}/messages`, { content: 'elsewhere' }, w.aliceAuth);
    expect(w.cache.get(lobbyEntryKey(w.lobby.id)), "another lobby's writes change none of its records").toBe(entry);
    const again = await w.client.get(`${w.messages}?limit=200`, w.bobAuth);
    expect(again.body).toEqual(w.first.body);
  });

  it('a new message of the lobby joins the cached entry (write-through) and reads exactly as from the store', async () => {
    const w = await cachedLobby();
    const entry = w.cache.get(lobbyEntryKey(w.lobby.id));
    await w.client.post(w.messages, { content: 'by bob', metadata: { k: 'v' } }, w.bobAuth);
    await w.client.post(w.messages, { content: 'by the bot' }, w.botAuth);
    expect(w.cache.get(lobbyEntryKey(w.lobby.id)), 'the entry took the messages in').toBe(entry);
    const cached = await w.client.get(`${w.messages}?limit=200`, w.aliceAuth);
    w.cache.delete(lobbyEntryKey(w.lobby.id));
    const stored = await w.client.get(`${w.messages}?limit=200`, w.aliceAuth);
    expect(cached.body).toEqual(stored.body);
    expect(cached.body.map((m: { content: string }) => m.content)).toEqual(['by the bot', 'by bob', 'm2', 'm1', 'm0']);
  });

  it('a full entry keeps the newest 200 as new messages arrive (the oldest leaves it)', async () => {
    const w = await cachedLobby(200);
    await w.client.post(w.messages, { content: 'newest' }, w.aliceAuth);
    const cached = await w.client.get(`${w.messages}?limit=200`, w.bobAuth);
    expect(cached.body).toHaveLength(200);
    expect(cached.body[0].content).toBe('newest');
    expect(cached.body[199].content).toBe('m1');
  });

  it('a profile change of one of its authors drops the entry, so the next read shows the new name', async () => {
    const w = await cachedLobby();
    const alice = w.first.body[0].author;
    await w.client.app.ctx.db.write(['users'], async (tx) => {
      const user = await tx.store('users').get(alice.id);
      await tx.store('users').put({ ...user!, global_name: 'Alice A.' });
    });
    expect(w.cache.get(lobbyEntryKey(w.lobby.id))).toBeUndefined();
    const after = await w.client.get(`${w.messages}?limit=200`, w.bobAuth);
    expect(after.body[0].author.global_name).toBe('Alice A.');
  });

  it('a deleted lobby is 404 at once, although it was cached', async () => {
    const w = await cachedLobby();
    await w.client.app.ctx.db.write(['lobbies'], (tx) => tx.store('lobbies').delete(w.lobby.id));
    expectError(await w.client.get(w.messages, w.bobAuth), 404, 10031);
  });

  it('a context that did not enable it (the shared worker) has no cache: its reads go to the store', async () => {
    const ctx = await createPlatformContext({
      db: await openPlatformStorage(`read-cache-hub-${process.pid}`),
      workerId: SNOWFLAKE_WORKERS.hub,
    });
    expect(ctx.cache).toBeUndefined();
    ctx.db.close();
  });
});

// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../../src/platform/oauth2/auth';
import { createLobbyMessage } from '../../../src/platform/lobbies/messages';
import { removeLobbyMember } from '../../../src/platform/lobbies/members';
import { deleteLobby } from '../../../src/platform/lobbies/lobbies';
import { resetPlatform } from '../../../src/platform/core/fixtures';
import { ApiError } from '../../../src/platform/core/errors';
import type { BotPrincipal } from '../../../src/platform/oauth2/auth';
import { IDLE_DEADLINE_KEY } from '../../../src/platform/lobbies/lobby-read-cache';
import { lobbyAudienceKey } from '../../../src/platform/lobbies/lobby-write-cache';
import type { PlatformContext } from '../../../src/platform/core/context';
import { expectError, loggedEvents, lobbyWorld } from './lobby-fixtures';

const LOBBIES = '/api/v10/lobbies';

/** The requests each write of `ctx` makes, as `store.method`, from now on. */
function recordRequests(ctx: PlatformContext): string[] {
  const requests: string[] = [];
  const engine = ctx.db.engine;
  const write = engine.write.bind(engine);
  const recording = (target: object, name: string): object =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result = value.apply(object, args);
          if (property === 'index') return recording(result, `${name}.index`);
          requests.push(`${name}.${String(property)}`);
          return result;
        };
      },
    });
  engine.write = ((stores, body) =>
    write(stores, (tx) =>
      body(
        new Proxy(tx, {
          get(object, property) {
            if (property !== 'store') return Reflect.get(object, property);
            return (name: string) => recording(object.store(name as never), name);
          },
        }),
      ),
    )) as typeof engine.write;
  return requests;
}

/** What a call of the platform failed with, as status and code. */
async function refusal(call: Promise<unknown>): Promise<[number, number]> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the call was refused').toBeInstanceOf(ApiError);
  return [(error as ApiError).status, (error as ApiError).code];
}

/** A lobby of alice and bob that the bot has posted to once, so that the cache knows its reads. */
async function postedLobby() {
  const w = await lobbyWorld();
  const lobby = (await w.client.put(LOBBIES, { secret: 'chat' }, w.aliceAuth)).body;
  await w.client.put(LOBBIES, { secret: 'chat' }, w.bobAuth);
  const messages = `${LOBBIES}/${lobby.id}/messages`;
  expect((await w.client.post(messages, { content: 'first' }, w.botAuth)).status).toBe(201);
  const ctx = w.client.app.ctx;
  const cache = ctx.cache!;
  expect(cache.get(lobbyAudienceKey(lobby.id)), 'the post kept the lobby and its members').toBeDefined();
  expect(cache.get(IDLE_DEADLINE_KEY), 'the post kept the earliest idle deadline').toBeDefined();
  const bot = (await authenticate(ctx, w.botAuth)) as BotPrincipal;
  const bob = await authenticate(ctx, w.bobAuth);
  return { ...w, lobby, messages, ctx, cache, asBot: bot, asBob: bob };
}

/** The audience of each LOBBY_MESSAGE_CREATE with `content`. */
async function audienceOf(w: Awaited<ReturnType<typeof postedLobby>>, content: string) {
  const events = await loggedEvents(w.client, 'LOBBY_MESSAGE_CREATE');
  return events
    .filter((e) => (e.data as { content: string }).content === content)
    .map((e) => [...(e.audience as { user_ids: string[] }).user_ids].sort());
}

async function lobbyMessageCount(w: Awaited<ReturnType<typeof postedLobby>>): Promise<number> {
  return (await w.client.db.getAll('lobby_messages')).filter((m) => m.lobby_id === w.lobby.id).length;
}

describe('a lobby message POST takes what the read cache knows, and nothing a write may have changed', () => {
  it('with the lobby, its members and the idle deadline known, the POST reads neither lobbies nor members', async () => {
    const w = await postedLobby();
    const requests = recordRequests(w.ctx);
    expect((await w.client.post(w.messages, { content: 'second' }, w.botAuth)).status).toBe(201);
    expect(requests.filter((r) => r.startsWith('lobbies') || r.startsWith('lobby_members'))).toEqual([]);
    expect(requests).toContain('lobby_messages.add');
    expect(await audienceOf(w, 'second')).toEqual([[w.alice.id, w.bob.id].sort()]);
  });

  it('POSTs in flight at once do not hold each other back: none of them reads lobbies or members', async () => {
    const w = await postedLobby();
    const requests = recordRequests(w.ctx);
    const posts = ['a', 'b', 'c'].map((content) => createLobbyMessage(w.ctx, w.asBot, w.lobby.id, { content }));
    await Promise.all(posts);
    expect(requests.filter((r) => r.startsWith('lobbies') || r.startsWith('lobby_members'))).toEqual([]);
    expect(await lobbyMessageCount(w)).toBe(4);
  });

  it("an idle deadline that came due is swept in the POST's own write: the other lobby goes with its LOBBY_DELETE", async () => {
    const w = await postedLobby();
    const empty = (await w.client.post(LOBBIES, { idle_timeout_seconds: 5 }, w.botAuth)).body;
    await w.client.post(w.messages, { content: 'before' }, w.botAuth);
    await w.client.put('/sandbox/clock', { now: new Date(Date.now() + 60_000).toISOString() });
    const requests = recordRequests(w.ctx);
    expect((await w.client.post(w.messages, { content: 'due' }, w.botAuth)).status).toBe(201);
    expect(requests, 'the sweep ran in the transaction').toContain('lobbies.index.getAll');
    expect((await loggedEvents(w.client, 'LOBBY_DELETE')).map((e) => (e.data as { id: string }).id)).toEqual([
      empty.id,
    ]);
    expect(await w.client.db.get('lobbies', empty.id)).toBeUndefined();
    expect(await audienceOf(w, 'due')).toEqual([[w.alice.id, w.bob.id].sort()]);
  });

  it('a member removed by an earlier request is 403 50001, and the next message does not reach them', async () => {
    const w = await postedLobby();
    expect((await w.client.delete(`${LOBBIES}/${w.lobby.id}/members/@me`, w.bobAuth)).status).toBe(204);
    expectError(await w.client.post(w.messages, { content: 'late' }, w.bobAuth), 403, 50001);
    expect((await w.client.post(w.messages, { content: 'after' }, w.botAuth)).status).toBe(201);
    expect(await audienceOf(w, 'after')).toEqual([[w.alice.id]]);
  });

  it('a member removal in flight when the POST begins is ordered first: 403 50001, nothing stored', async () => {
    const w = await postedLobby();
    const removal = removeLobbyMember(w.ctx, w.asBob, w.lobby.id, w.bob.id);
    const post = createLobbyMessage(w.ctx, w.asBob, w.lobby.id, { content: 'raced' });
    expect(await refusal(post)).toEqual([403, 50001]);
    await removal;
    expect(await lobbyMessageCount(w)).toBe(1);
  });

  it('a POST that begins before a member removal reaches that member: the audience is the members at its commit', async () => {
    const w = await postedLobby();
    const post = createLobbyMessage(w.ctx, w.asBot, w.lobby.id, { content: 'before' });
    const removal = removeLobbyMember(w.ctx, w.asBob, w.lobby.id, w.bob.id);
    await Promise.all([post, removal]);
    expect(await audienceOf(w, 'before')).toEqual([[w.alice.id, w.bob.id].sort()]);
    expect(await refusal(createLobbyMessage(w.ctx, w.asBob, w.lobby.id, { content: 'x' }))).toEqual([403, 50001]);
  });

  it('a member who joined since the last POST hears the next one', async () => {
    const w = await postedLobby();
    await w.client.put(LOBBIES, { secret: 'chat' }, w.carolAuth);
    expect((await w.client.post(w.messages, { content: 'hello carol' }, w.botAuth)).status).toBe(201);
    expect(await audienceOf(w, 'hello carol')).toEqual([[w.alice.id, w.bob.id, w.carol.id].sort()]);
  });

  it('a lobby deletion in flight when the POST begins is ordered first: 404 10031, no message left behind', async () => {
    const w = await postedLobby();
    const deletion = deleteLobby(w.ctx, w.asBot, w.lobby.id);
    const post = createLobbyMessage(w.ctx, w.asBot, w.lobby.id, { content: 'orphan' });
    expect(await refusal(post)).toEqual([404, 10031]);
    await deletion;
    expect(await lobbyMessageCount(w)).toBe(0);
    expect(await audienceOf(w, 'orphan')).toEqual([]);
  });

  it('a lobby deleted by an earlier request is 404 10031', async () => {
    const w = await postedLobby();
    expect((await w.client.delete(`${LOBBIES}/${w.lobby.id}`, w.botAuth)).status).toBe(204);
    expectError(await w.client.post(w.messages, { content: 'gone' }, w.botAuth), 404, 10031);
    expect(await lobbyMessageCount(w)).toBe(0);
  });

  it('a reset in flight when the POST begins is ordered first: 404 10031, the store stays empty', async () => {
    const w = await postedLobby();
    const reset = resetPlatform(w.ctx);
    const post = createLobbyMessage(w.ctx, w.asBot, w.lobby.id, { content: 'after reset' });
    expect(await refusal(post)).toEqual([404, 10031]);
    await reset;
    expect(await w.client.db.getAll('lobby_messages')).toEqual([]);
    expect(await refusal(createLobbyMessage(w.ctx, w.asBot, w.lobby.id, { content: 'again' }))).toEqual([404, 10031]);
  });

  it('an empty lobby the clock moved past its idle deadline is 404 10031, and is removed once with its LOBBY_DELETE', async () => {
    const w = await lobbyWorld();
    const ctx = w.client.app.ctx;
    const lobby = (await w.client.post(LOBBIES, { idle_timeout_seconds: 5 }, w.botAuth)).body;
    const messages = `${LOBBIES}/${lobby.id}/messages`;
    expect((await w.client.post(messages, { content: 'one' }, w.botAuth)).status).toBe(201);
    expect(ctx.cache!.get(lobbyAudienceKey(lobby.id)), 'the post kept the lobby').toBeDefined();
    expect((await w.client.post(messages, { content: 'two' }, w.botAuth)).status).toBe(201);
    await w.client.put('/sandbox/clock', { now: new Date(Date.now() + 60_000).toISOString() });
    expectError(await w.client.post(messages, { content: 'three' }, w.botAuth), 404, 10031);
    expectError(await w.client.get(messages, w.botAuth), 404, 10031);
    expectError(await w.client.post(messages, { content: 'four' }, w.botAuth), 404, 10031);
    expect((await loggedEvents(w.client, 'LOBBY_DELETE')).map((e) => (e.data as { id: string }).id)).toEqual([
      lobby.id,
    ]);
    expect(await w.client.db.count('lobby_messages')).toBe(0);
  });

  it('another context that removed a member is heard through its announcement: the next POST is 403 50001', async () => {
    const w = await postedLobby();
    // Straight through the engine: a commit this context's listeners never hear, as another worker's.
    await w.ctx.db.engine.write(['lobby_members'], (tx) => tx.store('lobby_members').delete([w.lobby.id, w.bob.id]));
    w.ctx.cache!.forget(['lobby_members']);
    expect(await refusal(createLobbyMessage(w.ctx, w.asBob, w.lobby.id, { content: 'stale' }))).toEqual([403, 50001]);
    expect((await w.client.post(w.messages, { content: 'fresh' }, w.botAuth)).status).toBe(201);
    expect(await audienceOf(w, 'fresh')).toEqual([[w.alice.id]]);
  });
});

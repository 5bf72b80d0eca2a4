/**
 * The service worker's read cache is never stale: after a write from each kind of writer (the
 * HTTP API, the shared worker, another page, a sandbox reset, a clock change) a read right after
 * it, through the cache, gets what was written. Every lobby read here is first made once so
 * that the worker holds it.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewaySocket } from '../../src/sockets/gateway-socket';
import { registerPlatformWorker, resetSandbox } from './harness';

async function call(method: string, path: string, body?: unknown, auth?: string, from: Window = window) {
  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  const response = await from.fetch(path, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Alice and Bob in one lobby with three messages, the lobby read once (now cached). */
async function cachedLobby() {
  const alice = (await call('POST', '/sandbox/users', { username: 'alice' })).body.user;
  const bob = (await call('POST', '/sandbox/users', { username: 'bob' })).body.user;
  const app = (await call('POST', '/sandbox/applications', { name: 'Game' })).body;
  const token = async (userId: string) =>
    `Bearer ${(await call('POST', '/sandbox/tokens', { application_id: app.application.id, user_id: userId, scopes: 'openid sdk.social_layer guilds' })).body.access_token}`;
  const aliceAuth = await token(alice.id);
  const bobAuth = await token(bob.id);
  const lobby = (await call('PUT', '/api/v10/lobbies', { secret: 'cached' }, aliceAuth)).body;
  await call('PUT', '/api/v10/lobbies', { secret: 'cached' }, bobAuth);
  const path = `/api/v10/lobbies/${lobby.id}/messages`;
  for (const content of ['one', 'two', 'three']) await call('POST', path, { content }, aliceAuth);
  const read = async (auth = bobAuth) => call('GET', `${path}?limit=200`, undefined, auth);
  const contents = async (auth = bobAuth) => (await read(auth)).body.map((m: { content: string }) => m.content);
  expect(await contents()).toEqual(['three', 'two', 'one']);
  return { alice, bob, app, aliceAuth, bobAuth, botAuth: `Bot ${app.bot_token}`, lobby, path, read, contents };
}

/** A page of its own, controlled by the same worker: another client of it. */
async function anotherPage(): Promise<Window> {
  const frame = document.createElement('iframe');
  frame.src = '/test/browser/fixtures/blank-page.html';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const page = frame.contentWindow!;
  expect(page.navigator.serviceWorker.controller, 'the other page is controlled by the platform worker').not.toBeNull();
  return page;
}

describe('the read cache is never stale: a read right after any writer wrote gets what was written', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);

  it('the HTTP API: a message to the lobby is in the next read, a message elsewhere changes nothing, a member who left is refused', async () => {
    const w = await cachedLobby();
    await call('POST', w.path, { content: 'four' }, w.bobAuth);
    expect(await w.contents()).toEqual(['four', 'three', 'two', 'one']);
    const other = (await call('PUT', '/api/v10/lobbies', { secret: 'elsewhere' }, w.aliceAuth)).body;
    await call('POST', `/api/v10/lobbies/${other.id}/messages`, { content: 'elsewhere' }, w.aliceAuth);
    expect(await w.contents()).toEqual(['four', 'three', 'two', 'one']);
    expect((await call('PATCH', `/sandbox/users/${w.alice.id}`, { global_name: 'Alice A.' })).status).toBe(200);
    const renamed = (await w.read()).body;
    expect(renamed.filter((m: { author: { id: string } }) => m.author.id === w.alice.id)).toHaveLength(3);
    for (const m of renamed.filter((m: { author: { id: string } }) => m.author.id === w.alice.id))
      expect(m.author.global_name).toBe('Alice A.');
    expect((await call('DELETE', `/api/v10/lobbies/${w.lobby.id}/members/@me`, undefined, w.bobAuth)).status).toBe(204);
    expect((await w.read()).status).toBe(403);
  });

  it('another page: what it posts is in this page’s next read', async () => {
    const w = await cachedLobby();
    const other = await anotherPage();
    expect((await call('POST', w.path, { content: 'from the other page' }, w.aliceAuth, other)).status).toBe(201);
    expect(await w.contents()).toEqual(['from the other page', 'three', 'two', 'one']);
  });

  it('the shared worker: its voice state write is read right after, and the cached lobby stays exact', async () => {
    const w = await cachedLobby();
    const { guild } = (await call('POST', '/sandbox/guilds', { name: 'Guild', owner_id: w.alice.id })).body;
    const voice = (await call('POST', `/sandbox/guilds/${guild.id}/channels`, { name: 'Voice', type: 2 })).body;
    const voiceId = voice.channel?.id ?? voice.id;
    const hubName = `platformpp-hub-read-cache-${Date.now()}`;
    const socket = new GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName });
    const received: { op: number; t: string | null; d: any }[] = [];
    socket.addEventListener('message', (event) => received.push(JSON.parse((event as MessageEvent).data)));
    const waitFor = async (match: (p: (typeof received)[number]) => boolean) => {
      for (let i = 0; i < 500 && !received.some(match); i++) await new Promise((r) => setTimeout(r, 10));
      const hit = received.find(match);
      if (!hit) throw new Error(`timed out; received ${received.map((p) => p.t ?? p.op).join(', ')}`);
      return hit;
    };
    await waitFor((p) => p.op === 10);
    const GUILDS_AND_VOICE_STATES = (1 << 0) | (1 << 7);
    socket.send(JSON.stringify({ op: 2, d: { token: w.aliceAuth, intents: GUILDS_AND_VOICE_STATES, properties: {} } }));
    await waitFor((p) => p.t === 'READY');
    socket.send(
      JSON.stringify({ op: 4, d: { guild_id: guild.id, channel_id: voiceId, self_mute: false, self_deaf: false } }),
    );
    await waitFor((p) => p.t === 'VOICE_STATE_UPDATE' && p.d.channel_id === voiceId);
    const state = await call('GET', `/api/v10/guilds/${guild.id}/voice-states/@me`, undefined, w.aliceAuth);
    expect(state.status).toBe(200);
    expect(state.body.channel_id).toBe(voiceId);
    expect(await w.contents()).toEqual(['three', 'two', 'one']);
    socket.close();
  });

  it('a sandbox reset: the cached caller and lobby are gone at once (401, then 404 for a new caller)', async () => {
    const w = await cachedLobby();
    await resetSandbox();
    expect((await w.read()).status).toBe(401);
    const app = (await call('POST', '/sandbox/applications', { name: 'Again' })).body;
    expect((await call('GET', w.path, undefined, `Bot ${app.bot_token}`)).status).toBe(404);
  });

  it('a clock change: a cached token past its expiry is 401, and a cached empty lobby past its idle deadline is 404', async () => {
    const w = await cachedLobby();
    const start = Date.now();
    try {
      const empty = (await call('POST', '/api/v10/lobbies', { idle_timeout_seconds: 5 }, w.botAuth)).body;
      const emptyPath = `/api/v10/lobbies/${empty.id}/messages`;
      await call('POST', emptyPath, { content: 'to nobody' }, w.botAuth);
      expect(
        (await call('GET', emptyPath, undefined, w.botAuth)).body.map((m: { content: string }) => m.content),
      ).toEqual(['to nobody']);
      await call('PUT', '/sandbox/clock', { now: new Date(start + 60_000).toISOString() });
      expect((await call('GET', emptyPath, undefined, w.botAuth)).status).toBe(404);
      expect(await w.contents()).toEqual(['three', 'two', 'one']);
      await call('PUT', '/sandbox/clock', { now: new Date(start + 8 * 86_400_000).toISOString() });
      expect((await w.read()).status).toBe(401);
    } finally {
      await call('DELETE', '/sandbox/clock');
    }
  });
});

import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewaySocket, hub, serveGatewaySockets } from '../../src/sockets/gateway-socket';
import { registerPlatformWorker, resetSandbox } from './harness';

/** A JSON request to the platform, answered by the service worker. */
async function call(method: string, path: string, body?: unknown, auth?: string) {
  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function world(flags = 0) {
  const alice = (await call('POST', '/sandbox/users', { username: 'alice' })).body.user;
  const bob = (await call('POST', '/sandbox/users', { username: 'bob' })).body.user;
  const app = (await call('POST', '/sandbox/applications', { name: 'Game', flags })).body;
  const token = async (userId: string) =>
    `Bearer ${(await call('POST', '/sandbox/tokens', { application_id: app.application.id, user_id: userId, scopes: 'openid sdk.social_layer' })).body.access_token}`;
  return {
    alice,
    bob,
    bot: app.bot,
    botAuth: `Bot ${app.bot_token}`,
    aliceAuth: await token(alice.id),
    bobAuth: await token(bob.id),
    token,
  };
}

let hubCounter = 0;
/** A hub of its own per test: a fresh shared worker that has never seen any session. */
const freshHub = () => `platformpp-hub-test-${Date.now()}-${++hubCounter}`;

interface Payload {
  op: number;
  d: any;
  s: number | null;
  t: string | null;
}

/** A gateway client over a GatewaySocket: every payload it received, and waits. */
function client(socket: WebSocket) {
  const received: Payload[] = [];
  socket.addEventListener('message', (event) => received.push(JSON.parse((event as MessageEvent).data)));
  const waitFor = async (match: (p: Payload) => boolean, from = 0) => {
    for (let i = 0; i < 500; i++) {
      const hit = received.slice(from).find(match);
      if (hit) return hit;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`timed out; received ${received.map((p) => p.t ?? p.op).join(', ')}`);
  };
  return {
    socket,
    received,
    waitFor,
    send: (payload: unknown) => socket.send(JSON.stringify(payload)),
    async identify(token: string, intents = 0) {
      await waitFor((p) => p.op === 10);
      socket.send(
        JSON.stringify({
          op: 2,
          d: { token, intents, properties: { os: 'browser', browser: 'chromium', device: 'test' } },
        }),
      );
      return (await waitFor((p) => p.t === 'READY')).d;
    },
    dispatches: (t: string) => received.filter((p) => p.op === 0 && p.t === t),
  };
}

describe('the shared-worker gateway in real Chromium', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);

  it("two users on one shared worker see each other's lobby messages, in order", async () => {
    const w = await world();
    const hubName = freshHub();
    const alice = client(new GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName }));
    const bob = client(new GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName }));
    await alice.identify(w.aliceAuth);
    await bob.identify(w.bobAuth);
    const lobby = (await call('PUT', '/api/v10/lobbies', { secret: 'gw' }, w.aliceAuth)).body;
    await call('PUT', '/api/v10/lobbies', { secret: 'gw' }, w.bobAuth);
    for (let i = 0; i < 6; i++) {
      const res = await call(
        'POST',
        `/api/v10/lobbies/${lobby.id}/messages`,
        { content: `m${i}` },
        i % 2 ? w.bobAuth : w.aliceAuth,
      );
      expect(res.status).toBe(201);
    }
    for (const c of [alice, bob]) {
      await c.waitFor((p) => p.t === 'LOBBY_MESSAGE_CREATE' && p.d.content === 'm5');
      const messages = c.dispatches('LOBBY_MESSAGE_CREATE');
      expect(messages.map((p) => p.d.content)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
      expect(messages.map((p) => p.d.author.id)).toEqual([
        w.alice.id,
        w.bob.id,
        w.alice.id,
        w.bob.id,
        w.alice.id,
        w.bob.id,
      ]);
      const seqs = messages.map((p) => p.s!);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
    alice.socket.close(1000);
    bob.socket.close(1000);
  });

  it('Resume after the shared worker restarted loses no event', async () => {
    const w = await world();
    const { guild } = (await call('POST', '/sandbox/guilds', { name: 'Guild', owner_id: w.alice.id })).body;
    await call('PUT', `/sandbox/guilds/${guild.id}/members/${w.bot.id}`, {});
    const hubName = freshHub();
    // The first incarnation of the hub lives only as long as this iframe.
    const frame = await pageWithGateway();
    const first = client(new frame.GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName }));
    const incarnation = await frame.hub(hubName).incarnation();
    const ready = await first.identify(w.botAuth, 1);
    await call('POST', `/sandbox/guilds/${guild.id}/channels`, { name: 'seen', type: 0 });
    const seen = await first.waitFor((p) => p.t === 'CHANNEL_CREATE');
    frame.remove();
    for (const name of ['missed-1', 'missed-2', 'missed-3'])
      await call('POST', `/sandbox/guilds/${guild.id}/channels`, { name, type: 0 });
    const second = await pageWithGateway();
    expect(await second.hub(hubName).incarnation()).not.toBe(incarnation);
    const resumed = client(
      new second.GatewaySocket(ready.resume_gateway_url + '?v=10&encoding=json', undefined, { hubName }),
    );
    await resumed.waitFor((p) => p.op === 10);
    resumed.send({ op: 6, d: { token: w.botAuth, session_id: ready.session_id, seq: seen.s } });
    await resumed.waitFor((p) => p.t === 'RESUMED');
    expect(resumed.received.filter((p) => p.op === 0).map((p) => [p.s, p.t, p.d.name])).toEqual([
      [seen.s! + 1, 'CHANNEL_CREATE', 'missed-1'],
      [seen.s! + 2, 'CHANNEL_CREATE', 'missed-2'],
      [seen.s! + 3, 'CHANNEL_CREATE', 'missed-3'],
      [seen.s! + 4, 'RESUMED', undefined],
    ]);
    resumed.socket.close(1000);
    second.remove();
  });

  it("a ban deletes the user's tokens at once: their open socket is closed with 4004, others stay (spec, Linked game account after a ban)", async () => {
    const w = await world();
    const hubName = freshHub();
    const alice = client(new GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName }));
    const bob = client(new GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName }));
    const ready = await alice.identify(w.aliceAuth);
    await bob.identify(w.bobAuth);
    const closed = new Promise<CloseEvent>((resolve) =>
      alice.socket.addEventListener('close', (event) => resolve(event as CloseEvent)),
    );
    expect((await call('POST', `/sandbox/users/${w.alice.id}/ban`, {})).status).toBe(204);
    const event = await closed;
    expect([event.code, event.reason]).toEqual([4004, 'Authentication failed.']);
    expect(bob.socket.readyState).toBe(WebSocket.OPEN);
    // Non-resumable: the ban lifted and a new token for alice do not bring the session back.
    await call('DELETE', `/sandbox/users/${w.alice.id}/ban`);
    const again = client(new GatewaySocket(ready.resume_gateway_url + '?v=10&encoding=json', undefined, { hubName }));
    await again.waitFor((p) => p.op === 10);
    again.send({ op: 6, d: { token: await w.token(w.alice.id), session_id: ready.session_id, seq: 1 } });
    expect((await again.waitFor((p) => p.op === 9)).d).toBe(false);
    again.socket.close(1000);
    bob.socket.close(1000);
  });

  it('when the hub is gone a socket closes as a dropped WebSocket (1006), and its session resumes on the new hub', async () => {
    const w = await world();
    const { guild } = (await call('POST', '/sandbox/guilds', { name: 'Guild', owner_id: w.alice.id })).body;
    await call('PUT', `/sandbox/guilds/${guild.id}/members/${w.bot.id}`, {});
    const hubName = freshHub();
    const first = client(new GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName }));
    const ready = await first.identify(w.botAuth, 1);
    const guildCreate = await first.waitFor((p) => p.t === 'GUILD_CREATE');
    const closed = new Promise<CloseEvent>((resolve) =>
      first.socket.addEventListener('close', (event) => resolve(event as CloseEvent)),
    );
    const before = await hub(hubName).incarnation();
    // The worker closes itself, as when the browser stops or loses it.
    void hub(hubName).stop();
    const event = await closed;
    expect([event.code, event.wasClean]).toEqual([1006, false]);
    await call('POST', `/sandbox/guilds/${guild.id}/channels`, { name: 'while-away', type: 0 });
    const resumed = client(new GatewaySocket(ready.resume_gateway_url + '?v=10&encoding=json', undefined, { hubName }));
    expect(await hub(hubName).incarnation()).not.toBe(before);
    await resumed.waitFor((p) => p.op === 10);
    resumed.send({ op: 6, d: { token: w.botAuth, session_id: ready.session_id, seq: guildCreate.s } });
    await resumed.waitFor((p) => p.t === 'RESUMED');
    expect(resumed.received.filter((p) => p.op === 0).map((p) => [p.t, p.d.name])).toEqual([
      ['CHANNEL_CREATE', 'while-away'],
      ['RESUMED', undefined],
    ]);
    resumed.socket.close(1000);
  });

  it('a second all-members Request Guild Members within 30 s gets RATE_LIMITED and no chunks', async () => {
    await call('PUT', '/sandbox/clock', { now: '2026-01-01T00:00:00.000Z' });
    const w = await world(1 << 15);
    const { guild } = (await call('POST', '/sandbox/guilds', { name: 'Guild', owner_id: w.alice.id })).body;
    await call('PUT', `/sandbox/guilds/${guild.id}/members/${w.bot.id}`, {});
    const bot = client(new GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName: freshHub() }));
    await bot.identify(w.botAuth, (1 << 0) | (1 << 1));
    bot.send({ op: 8, d: { guild_id: guild.id, query: '', limit: 0, nonce: 'first' } });
    const chunk = await bot.waitFor((p) => p.t === 'GUILD_MEMBERS_CHUNK');
    expect(chunk.d.members.map((m: any) => m.user.id).sort()).toEqual([w.alice.id, w.bot.id].sort());
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: guild.id, query: '', limit: 0, nonce: 'second' } });
    const limited = await bot.waitFor((p) => p.t === 'RATE_LIMITED', from);
    expect(limited.d).toEqual({ opcode: 8, retry_after: 30, meta: { guild_id: guild.id, nonce: 'second' } });
    expect(bot.received.slice(from).some((p) => p.t === 'GUILD_MEMBERS_CHUNK')).toBe(false);
    bot.socket.close(1000);
  });
});

/** A same-origin iframe that loaded GatewaySocket: its own module instance, its own hub references. */
async function pageWithGateway(): Promise<{
  GatewaySocket: typeof GatewaySocket;
  hub: typeof import('../../src/sockets/gateway-socket').hub;
  remove(): void;
}> {
  const iframe = document.createElement('iframe');
  const loaded = new Promise<void>((resolve, reject) => {
    window.addEventListener('message', function listener(event) {
      if (event.source !== iframe.contentWindow) return;
      window.removeEventListener('message', listener);
      if (event.data === 'ready') resolve();
      else reject(new Error(String(event.data)));
    });
  });
  const moduleUrl = new URL('../../src/sockets/gateway-socket.ts', import.meta.url).href;
  iframe.srcdoc = `<script type="module">
    import(${JSON.stringify(moduleUrl)}).then((m) => { window.gateway = m; parent.postMessage('ready', '*'); }, (e) => parent.postMessage(String(e), '*'));
  </script>`;
  document.body.append(iframe);
  await loaded;
  const gateway = (iframe.contentWindow as any).gateway;
  return { GatewaySocket: gateway.GatewaySocket, hub: gateway.hub, remove: () => iframe.remove() };
}

describe('GatewaySocket in a dedicated worker (CONTRACT §4: a page or worker reaches the gateway)', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);

  /** A worker running fixtures/gateway-worker.ts, and what it reported. */
  function startWorker() {
    const worker = new Worker(new URL('./fixtures/gateway-worker.ts', import.meta.url), { type: 'module' });
    const reports: any[] = [];
    worker.addEventListener('message', (event) => {
      if (event.data?.type) reports.push(event.data);
    });
    return { worker, reports };
  }

  it("a worker's GatewaySocket identifies through the page that serves it, and hears lobby messages from the shared worker", async () => {
    const w = await world();
    const hubName = freshHub();
    const { worker, reports } = startWorker();
    const stop = serveGatewaySockets(worker);
    worker.postMessage({ type: 'connect', token: w.aliceAuth, hubName });
    await expect
      .poll(() => reports.find((r) => r.type === 'ready'), { timeout: 10_000 })
      .toEqual({ type: 'ready', userId: w.alice.id });
    const lobby = (await call('PUT', '/api/v10/lobbies', { secret: 'worker' }, w.bobAuth)).body;
    await call('PUT', '/api/v10/lobbies', { secret: 'worker' }, w.aliceAuth);
    await call('POST', `/api/v10/lobbies/${lobby.id}/messages`, { content: 'to the worker' }, w.bobAuth);
    await expect
      .poll(() => reports.filter((r) => r.type === 'message').map((r) => r.content), { timeout: 10_000 })
      .toEqual(['to the worker']);
    stop();
    worker.terminate();
  });

  it("when the shared worker is gone the worker's socket drops (1006) as a page's does", async () => {
    const w = await world();
    const hubName = freshHub();
    const { worker, reports } = startWorker();
    serveGatewaySockets(worker);
    worker.postMessage({ type: 'connect', token: w.aliceAuth, hubName });
    await expect.poll(() => reports.some((r) => r.type === 'ready'), { timeout: 10_000 }).toBe(true);
    // The worker closes itself, as when the browser stops or loses it.
    void hub(hubName).stop();
    await expect
      .poll(() => reports.find((r) => r.type === 'close'), { timeout: 15_000 })
      .toEqual({ type: 'close', code: 1006, wasClean: false });
    worker.terminate();
  });

  it('a worker whose page does not serve its sockets gets a dropped socket (1006) instead of waiting for ever', async () => {
    const { worker, reports } = startWorker();
    worker.postMessage({ type: 'connect', token: 'unused', hubName: freshHub() });
    await expect
      .poll(() => reports.find((r) => r.type === 'close'), { timeout: 10_000 })
      .toEqual({ type: 'close', code: 1006, wasClean: false });
    worker.terminate();
  });
});

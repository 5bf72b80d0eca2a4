import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../src/components/sandbox-client';
import { watchServiceWorkerStops, type ServiceWorkerRestart } from '../../src/components/service-worker-restart';
import { GatewaySocket, hub } from '../../src/sockets/gateway-socket';
import { registerPlatformWorker, resetSandbox, servedByWorker } from './harness';

/** The starts of the service worker running now: each holds a Web Lock of its own while it lives (`sw/sw.ts`). */
async function serviceWorkerStarts(): Promise<string[]> {
  const { held = [] } = await navigator.locks.query();
  return held.map((lock) => lock.name ?? '').filter((name) => name.startsWith('platformpp-sw-start:'));
}

/** Waits until `check` holds (10 ms steps, 10 s at most). */
async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A JSON request to the platform, answered by the service worker. */
async function call(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** A bot in a guild, and its identified socket on a hub of its own. */
async function botOnHub(hubName: string) {
  const alice = (await call('POST', '/sandbox/users', { username: 'alice' })).body.user;
  const app = (await call('POST', '/sandbox/applications', { name: 'Game' })).body;
  const { guild } = (await call('POST', '/sandbox/guilds', { name: 'Guild', owner_id: alice.id })).body;
  await call('PUT', `/sandbox/guilds/${guild.id}/members/${app.bot.id}`, {});
  const socket = new GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName });
  const received: { op: number; d: any; s: number | null; t: string | null }[] = [];
  socket.addEventListener('message', (event) => received.push(JSON.parse((event as MessageEvent).data)));
  const waitFor = async (match: (p: (typeof received)[number]) => boolean) => {
    for (let i = 0; i < 500; i++) {
      const hit = received.find(match);
      if (hit) return hit;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`timed out; received ${received.map((p) => p.t ?? p.op).join(', ')}`);
  };
  await waitFor((p) => p.op === 10);
  const botAuth = `Bot ${app.bot_token}`;
  socket.send(JSON.stringify({ op: 2, d: { token: botAuth, intents: 1, properties: {} } }));
  const ready = (await waitFor((p) => p.t === 'READY')).d;
  const guildCreate = await waitFor((p) => p.t === 'GUILD_CREATE');
  return { socket, waitFor, ready, guildCreate, guild, botAuth, botId: app.bot.id as string };
}

let hubCounter = 0;
const freshHub = () => `platformpp-hub-faults-${Date.now()}-${++hubCounter}`;

describe('faults on demand in the browser host (service worker → shared worker)', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);

  it('a RECONNECT injected through the service worker reaches the shared worker: op 7, then a resumable close', async () => {
    const bot = await botOnHub(freshHub());
    const closed = new Promise<CloseEvent>((resolve) =>
      bot.socket.addEventListener('close', (event) => resolve(event as CloseEvent)),
    );
    expect((await call('POST', '/sandbox/faults', { type: 'reconnect', user_id: bot.botId })).status).toBe(201);
    await bot.waitFor((p) => p.op === 7);
    expect((await closed).code).toBe(4000);
  });

  it('an HTTP fault injected from the page answers the next matching request, served by the service worker', async () => {
    const app = (await call('POST', '/sandbox/applications', { name: 'Game' })).body;
    const me = () => fetch('/api/v10/users/@me', { headers: { Authorization: `Bot ${app.bot_token}` } });
    expect((await me()).status).toBe(200);
    const fault = { type: 'http_error', method: 'GET', path: '/api/v10/users/@me', status: 503, count: 2 };
    expect((await call('POST', '/sandbox/faults', fault)).status).toBe(201);
    const failed = await me();
    expect([failed.status, failed.headers.get('X-Served-By')]).toEqual([503, 'platformpp-sw']);
    expect((await me()).status).toBe(503);
    expect((await me()).status).toBe(200);
  });

  it('stop_shared_worker stops the hub now: the socket drops (1006), a new hub starts and the session resumes', async () => {
    const hubName = freshHub();
    const bot = await botOnHub(hubName);
    const before = await hub(hubName).incarnation();
    const closed = new Promise<CloseEvent>((resolve) =>
      bot.socket.addEventListener('close', (event) => resolve(event as CloseEvent)),
    );
    expect((await call('POST', '/sandbox/faults', { type: 'stop_shared_worker' })).status).toBe(201);
    expect((await closed).code).toBe(1006);
    await call('POST', `/sandbox/guilds/${bot.guild.id}/channels`, { name: 'while-stopped', type: 0 });
    const again = new GatewaySocket(`${bot.ready.resume_gateway_url}?v=10&encoding=json`, undefined, { hubName });
    const received: any[] = [];
    again.addEventListener('message', (event) => received.push(JSON.parse((event as MessageEvent).data)));
    expect(await hub(hubName).incarnation()).not.toBe(before);
    for (let i = 0; i < 500 && !received.some((p) => p.op === 10); i++) await new Promise((r) => setTimeout(r, 10));
    again.send(
      JSON.stringify({ op: 6, d: { token: bot.botAuth, session_id: bot.ready.session_id, seq: bot.guildCreate.s } }),
    );
    for (let i = 0; i < 500 && !received.some((p) => p.t === 'RESUMED'); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(received.filter((p) => p.op === 0).map((p) => [p.t, p.d.name])).toEqual([
      ['CHANNEL_CREATE', 'while-stopped'],
      ['RESUMED', undefined],
    ]);
    again.close(1000);
  });

  it('stop_service_worker: a new start of the worker takes over the page, the stopped one lets go, and the state kept in IndexedDB answers', async () => {
    const sandbox = new SandboxClient();
    const app = (await call('POST', '/sandbox/applications', { name: 'Game' })).body;
    const me = () => fetch('/api/v10/users/@me', { headers: { Authorization: `Bot ${app.bot_token}` } });
    const startsBefore = await serviceWorkerStarts();
    expect(startsBefore).toHaveLength(1);
    const old = navigator.serviceWorker.controller!;
    const redundant = new Promise<void>((resolve) =>
      old.addEventListener('statechange', () => old.state === 'redundant' && resolve()),
    );
    // A request the stopped start is still answering when the new one takes over.
    await sandbox.injectFault({ type: 'http_delay', method: 'GET', path: '/api/v10/users/@me', delay_ms: 400 });
    const inFlight = me();
    await new Promise((resolve) => setTimeout(resolve, 50));

    const injected = performance.now();
    const { fault, restart } = await sandbox.stopServiceWorker();
    const controlled = performance.now() - injected;
    expect(restart?.controller).toContain(`start=${fault.id}`);
    expect(navigator.serviceWorker.controller?.scriptURL).toBe(restart?.controller);
    await redundant;
    // The old start's lock is free: the browser stopped it; one start runs, the new one.
    await until(async () => {
      const now = await serviceWorkerStarts();
      return now.length === 1 && now[0] !== startsBefore[0];
    }, 'the stopped start to let go of its lock');
    const stopped = performance.now() - injected;

    const answered = await inFlight;
    expect([answered.status, servedByWorker(answered)]).toEqual([200, true]);
    const after = await me();
    expect([after.status, servedByWorker(after), (await after.json()).id]).toEqual([200, true, app.bot.id]);
    const recovered = performance.now() - injected;
    const { history } = await sandbox.listFaults();
    expect(history.map((f) => f.type)).toEqual(['http_delay', 'stop_service_worker']);
    console.info(
      `stop_service_worker: new start controls the page after ${controlled.toFixed(0)} ms, old start stopped after ${stopped.toFixed(0)} ms, first answer from the new start after ${recovered.toFixed(0)} ms`,
    );
    await sandbox.reset();
    expect(await sandbox.listFaults()).toEqual({ pending: [], history: [] });
  });

  it('a page that watches for stops (as <pp-platform> does) recovers from a stop_service_worker injected by anyone', async () => {
    const app = (await call('POST', '/sandbox/applications', { name: 'Game' })).body;
    const startsBefore = await serviceWorkerStarts();
    const restarted = new Promise<ServiceWorkerRestart>((resolve) => {
      const unwatch = watchServiceWorkerStops((restart) => {
        unwatch();
        resolve(restart);
      });
    });
    const injected = performance.now();
    const { body } = await call('POST', '/sandbox/faults', { type: 'stop_service_worker' });
    const restart = await restarted;
    expect(restart.controller).toContain(`start=${body.fault.id}`);
    await until(async () => !(await serviceWorkerStarts()).includes(startsBefore[0]), 'the old start to stop');
    const me = await fetch('/api/v10/users/@me', { headers: { Authorization: `Bot ${app.bot_token}` } });
    expect(me.status).toBe(200);
    console.info(`stop_service_worker (watched page): recovered after ${(performance.now() - injected).toFixed(0)} ms`);
  });

  it('a page registering the platform again after a stop keeps the running start instead of replacing it', async () => {
    await new SandboxClient().stopServiceWorker();
    const running = navigator.serviceWorker.controller!.scriptURL;
    const starts = await serviceWorkerStarts();
    await registerPlatformWorker();
    expect(navigator.serviceWorker.controller!.scriptURL).toBe(running);
    expect((await navigator.serviceWorker.getRegistration('/'))?.installing).toBeNull();
    await until(async () => (await serviceWorkerStarts()).length === 1, 'one start');
    expect(await serviceWorkerStarts()).toEqual(starts.slice(-1));
  });
});

import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewaySocket, hub } from '../../src/sockets/gateway-socket';
import { registerPlatformWorker, resetSandbox } from './harness';

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
});

/**
 * `GatewaySocket` on a server (CONTRACT §7): a real WebSocket to the gateway URL the server
 * names, with the same WebSocket interface as the shared worker's socket. Node 20 has no
 * WebSocket of its own: the `ws` package's stands in for the browser's.
 */
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewaySocket } from '../../src/sockets/gateway-socket';
import { setPageServer } from '../../src/sockets/platform-server';
import { bridgeServerSocket } from '../../src/sockets/server-socket';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

/** The next event of `type`. */
const next = <E extends Event>(target: EventTarget, type: string) =>
  new Promise<E>((resolve) => target.addEventListener(type, (e) => resolve(e as E), { once: true }));

/** Payloads a socket receives, and the first one `match` accepts. */
function payloads(ws: GatewaySocket) {
  const received: any[] = [];
  ws.addEventListener('message', (e) => received.push(JSON.parse((e as MessageEvent).data)));
  const waitFor = async (match: (p: any) => boolean) => {
    for (let i = 0; i < 400; i++) {
      const hit = received.find(match);
      if (hit) return hit;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`not received; got ${received.map((p) => p.t ?? p.op).join(', ')}`);
  };
  return { received, waitFor };
}

describe('GatewaySocket on a server: a real WebSocket with the same interface', () => {
  let server: TestServer;
  let base: string;
  let botToken: string;

  beforeAll(async () => {
    (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
    server = await startTestServer();
    base = freshSandbox(server.url);
    const api = sandboxClient(base);
    const owner = (await api.post('/sandbox/users', { username: 'owner' })).body.user;
    botToken = (await api.post('/sandbox/applications', { name: 'Bot', owner_id: owner.id })).body.bot_token;
  });

  afterEach(() => setPageServer(null));

  afterAll(async () => {
    await server?.stop();
    delete (globalThis as { WebSocket?: unknown }).WebSocket;
  });

  const gatewayUrl = () => `${base.replace('http', 'ws')}/gateway`;

  it('a URL on another host than the page is a WebSocket there: Hello, Identify, READY, a clean close', async () => {
    const ws = new GatewaySocket(`${gatewayUrl()}?v=10&encoding=json`);
    expect(ws.url).toBe(`${gatewayUrl()}?v=10&encoding=json`);
    expect(ws.readyState).toBe(GatewaySocket.CONNECTING);
    const { waitFor } = payloads(ws);
    await next(ws, 'open');
    expect((await waitFor((p) => p.op === 10)).d.heartbeat_interval).toBeGreaterThan(0);
    ws.send(JSON.stringify({ op: 2, d: { token: botToken, intents: 0, properties: {} } }));
    const ready = await waitFor((p) => p.t === 'READY');
    expect(ready.d.resume_gateway_url).toBe(gatewayUrl());
    const closed = next<CloseEvent>(ws, 'close');
    ws.close(1000);
    expect(ws.readyState).toBe(GatewaySocket.CLOSING);
    const event = await closed;
    expect([event.code, event.wasClean, ws.readyState]).toEqual([1000, true, GatewaySocket.CLOSED]);
  });

  it("in a page that joined the server, '/gateway?v=10&encoding=json' opens the server's gateway with that query", async () => {
    setPageServer(base, Promise.resolve({ url: base, gateway_url: gatewayUrl() }));
    const ws = new GatewaySocket('/gateway?v=10&encoding=json');
    const { waitFor } = payloads(ws);
    await next(ws, 'open');
    expect(ws.url).toBe(`${gatewayUrl()}?v=10&encoding=json`);
    await waitFor((p) => p.op === 10);
    // The server closes a bad version with its code, as on every host.
    const old = new GatewaySocket('/gateway?v=8&encoding=json');
    const closed = await next<CloseEvent>(old, 'close');
    expect(closed.code).toBe(4012);
    ws.close(1000);
  });

  it('in a page whose server could not be joined, the socket drops (error, then close 1006): never the local gateway', async () => {
    const failed = Promise.reject(new Error('the platform server http://127.0.0.1:1 could not be reached'));
    failed.catch(() => undefined);
    setPageServer('http://127.0.0.1:1', failed);
    const ws = new GatewaySocket('/gateway?v=10&encoding=json');
    let opened = false;
    ws.addEventListener('open', () => (opened = true));
    const error = next(ws, 'error');
    const closed = await next<CloseEvent>(ws, 'close');
    await error;
    expect([closed.code, closed.wasClean, opened]).toEqual([1006, false, false]);
  });

  it("a dedicated worker's socket, opened by its page on the server: the socket wire over a port, bridged to a WebSocket", async () => {
    const { port1, port2 } = new MessageChannel();
    bridgeServerSocket(`${gatewayUrl()}?v=10&encoding=json`, port2 as unknown as MessagePort);
    const events: any[] = [];
    port1.addEventListener('message', (event) => events.push(event.data));
    port1.start();
    const waitFor = async (match: (e: any) => boolean) => {
      for (let i = 0; i < 400 && !events.some(match); i++) await new Promise((r) => setTimeout(r, 10));
      return events.find(match);
    };
    expect(await waitFor((e) => e.type === 'open')).toEqual({ type: 'open' });
    port1.postMessage({
      type: 'send',
      data: JSON.stringify({ op: 2, d: { token: botToken, intents: 0, properties: {} } }),
    });
    const ready = await waitFor((e) => e.type === 'message' && JSON.parse(e.data).t === 'READY');
    expect(JSON.parse(ready.data).d.user.bot).toBe(true);
    port1.postMessage({ type: 'close', code: 1000, reason: 'done' });
    expect(await waitFor((e) => e.type === 'close')).toEqual({
      type: 'close',
      code: 1000,
      reason: 'done',
      wasClean: true,
    });
    port1.close();
  });
});

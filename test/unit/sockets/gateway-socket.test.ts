// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { GatewaySocket } from '../../../src/sockets/gateway-socket';
import { bridgeGatewayPort } from '../../../src/hub/gateway-port';
import { createGatewayHarness, type GatewayHarness } from '../gateway/gateway-harness';

/** A socket whose port is bridged to the harness's gateway, as the hub does. */
function socket(h: GatewayHarness, url = '/gateway?v=10&encoding=json'): GatewaySocket {
  return new GatewaySocket(url, undefined, {
    connect: (path) => {
      const { port1, port2 } = new MessageChannel();
      bridgeGatewayPort(h.gateway, port2 as unknown as MessagePort, path);
      return port1 as unknown as MessagePort;
    },
  });
}

/** The next event of `type` on the socket. */
const next = <E extends Event>(target: EventTarget, type: string) =>
  new Promise<E>((resolve) => target.addEventListener(type, (e) => resolve(e as E), { once: true }));

describe('GatewaySocket (CONTRACT §4: the WebSocket interface)', () => {
  it('has the WebSocket constants, an absolute ws: url, and starts CONNECTING', async () => {
    const h = await createGatewayHarness();
    const ws = socket(h);
    expect([GatewaySocket.CONNECTING, GatewaySocket.OPEN, GatewaySocket.CLOSING, GatewaySocket.CLOSED]).toEqual([
      0, 1, 2, 3,
    ]);
    expect([ws.CONNECTING, ws.OPEN, ws.CLOSING, ws.CLOSED]).toEqual([0, 1, 2, 3]);
    expect(ws.url).toBe('ws://localhost/gateway?v=10&encoding=json');
    expect([ws.protocol, ws.extensions, ws.binaryType, ws.bufferedAmount]).toEqual(['', '', 'blob', 0]);
    expect(ws.readyState).toBe(ws.CONNECTING);
    expect(() => ws.send('{}')).toThrow(expect.objectContaining({ name: 'InvalidStateError' }));
    await next(ws, 'open');
    expect(ws.readyState).toBe(ws.OPEN);
    ws.close(1000);
  });

  it('delivers Hello and READY as MessageEvents with string data, through onmessage too', async () => {
    const h = await createGatewayHarness();
    const ws = socket(h);
    const messages: string[] = [];
    ws.onmessage = (event) => messages.push(event.data);
    expect(typeof ws.onmessage).toBe('function');
    await next(ws, 'open');
    await new Promise<void>((resolve) => {
      ws.addEventListener('message', (event) => {
        const payload = JSON.parse((event as MessageEvent).data);
        if (payload.op === 10)
          ws.send(JSON.stringify({ op: 2, d: { token: h.world.botAuth, intents: 0, properties: {} } }));
        if (payload.t === 'READY') resolve();
      });
    });
    expect(JSON.parse(messages[0]).op).toBe(10);
    expect(messages.map((m) => JSON.parse(m).t)).toContain('READY');
    ws.close(1000);
  });

  it("names the gateway's origin in its http form on every message event, as a WebSocket names its server's", async () => {
    const h = await createGatewayHarness();
    const plain = socket(h);
    const secure = socket(h, 'wss://gateway.example:8443/gateway?v=10&encoding=json');
    const [hello, secureHello] = await Promise.all([
      next<MessageEvent>(plain, 'message'),
      next<MessageEvent>(secure, 'message'),
    ]);
    expect(hello.origin).toBe('http://localhost');
    expect(secureHello.origin).toBe('https://gateway.example:8443');
    expect(JSON.parse(hello.data).op).toBe(10);
    plain.close(1000);
    secure.close(1000);
  });

  it('accepts UTF-8 JSON sent as bytes', async () => {
    const h = await createGatewayHarness();
    const ws = socket(h);
    await next(ws, 'open');
    const ack = new Promise<void>((resolve) =>
      ws.addEventListener('message', (e) => JSON.parse((e as MessageEvent).data).op === 11 && resolve()),
    );
    ws.send(new TextEncoder().encode(JSON.stringify({ op: 1, d: null })));
    await ack;
    ws.close(1000);
  });

  it("closes with the gateway's close code (4012 for v=8) as a clean close event", async () => {
    const h = await createGatewayHarness();
    const ws = socket(h, '/gateway?v=8&encoding=json');
    const closed = await next<CloseEvent>(ws, 'close');
    expect([closed.code, closed.wasClean]).toEqual([4012, true]);
    expect(ws.readyState).toBe(ws.CLOSED);
  });

  it('close(code, reason) runs the close handshake: CLOSING, then a close event with that code', async () => {
    const h = await createGatewayHarness();
    const ws = socket(h);
    await next(ws, 'open');
    const closed = next<CloseEvent>(ws, 'close');
    ws.close(4000, 'bye');
    expect(ws.readyState).toBe(ws.CLOSING);
    expect(await closed).toMatchObject({ code: 4000, reason: 'bye', wasClean: true });
    expect(() => ws.close(1001)).toThrow(expect.objectContaining({ name: 'InvalidAccessError' }));
    expect(() => ws.close(1000, 'x'.repeat(124))).toThrow(expect.objectContaining({ name: 'SyntaxError' }));
  });

  it('where there are no shared workers and no page to ask (node) it says so instead of failing obscurely, and names the way out', () => {
    expect(typeof SharedWorker).toBe('undefined');
    expect(
      () => new GatewaySocket('/gateway?v=10&encoding=json', undefined, { hubName: `no-shared-worker-${Date.now()}` }),
    ).toThrow(/SharedWorker, which this context lacks.*serveGatewaySockets\(worker\)/);
  });
});

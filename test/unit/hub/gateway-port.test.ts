// @vitest-environment node
import { createInflate, inflateSync, constants as zlibConstants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bridgeGatewayPort } from '../../../src/hub/gateway-port';
import { HUB_TRANSPORT_COMPRESSIONS, hubGatewayZlib } from '../../../src/hub/gateway-zlib';
import type { GatewaySocketEvent } from '../../../src/hub/protocol';
import { createGatewayHarness } from '../gateway/gateway-harness';

/** A page's end of a bridged port: what it received, and a wait. */
function pageEnd(port: MessagePort) {
  const received: GatewaySocketEvent[] = [];
  port.addEventListener('message', (event: MessageEvent<GatewaySocketEvent>) => received.push(event.data));
  port.start();
  const waitFor = async (match: (e: GatewaySocketEvent) => boolean) => {
    for (let i = 0; i < 400; i++) {
      const hit = received.find(match);
      if (hit) return hit;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`timed out; received ${JSON.stringify(received)}`);
  };
  return {
    received,
    waitFor,
    send: (payload: unknown) => port.postMessage({ type: 'send', data: JSON.stringify(payload) }),
  };
}

describe("the hub's end of a gateway socket", () => {
  it('a page that is gone (its lock granted to the hub) drops its connection as 1006, and the session resumes', async () => {
    const h = await createGatewayHarness();
    const { port1, port2 } = new MessageChannel();
    let abandon = () => {};
    let letGo = 0;
    bridgeGatewayPort(h.gateway, port2, '/gateway?v=10&encoding=json', (release) => {
      abandon = release;
      return () => letGo++;
    });
    const page = pageEnd(port1);
    page.send({ op: 2, d: { token: h.world.aliceAuth, properties: { os: 'linux', browser: 'test', device: 'test' } } });
    const ready = JSON.parse(
      (
        (await page.waitFor(
          (e) => e.type === 'message' && typeof e.data === 'string' && e.data.includes('"READY"'),
        )) as { data: string }
      ).data,
    ).d;
    abandon();
    expect(await page.waitFor((e) => e.type === 'close')).toEqual({
      type: 'close',
      code: 1006,
      reason: '',
      wasClean: false,
    });
    expect(letGo).toBe(1);
    port1.close();

    const again = h.connect();
    again.send({ op: 6, d: { token: h.world.aliceAuth, session_id: ready.session_id, seq: 1 } });
    await again.waitForDispatch('RESUMED');
  });

  it("a socket the page closes lets go of the page's watch, so a later death changes nothing", async () => {
    const h = await createGatewayHarness();
    const { port1, port2 } = new MessageChannel();
    let abandon = () => {};
    let letGo = 0;
    bridgeGatewayPort(h.gateway, port2, '/gateway?v=10&encoding=json', (release) => {
      abandon = release;
      return () => letGo++;
    });
    const page = pageEnd(port1);
    port1.postMessage({ type: 'close', code: 1000, reason: 'bye' });
    await page.waitFor((e) => e.type === 'close');
    abandon();
    expect(letGo).toBe(1);
    expect(page.received.filter((e) => e.type === 'close')).toEqual([
      { type: 'close', code: 1000, reason: 'bye', wasClean: true },
    ]);
    port1.close();
  });
});

describe("the shared worker's gateway compression (CONTRACT §4: zlib-stream on both hosts)", () => {
  /** Inflates a connection's binary messages with one context, as a client does: each message's text. */
  function streamReader() {
    const inflate = createInflate();
    let text = '';
    inflate.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    return (message: ArrayBuffer) =>
      new Promise<string>((resolve) => {
        inflate.write(Buffer.from(message));
        inflate.flush(zlibConstants.Z_SYNC_FLUSH, () => {
          const whole = text;
          text = '';
          resolve(whole);
        });
      });
  }

  it('compress=zlib-stream: Hello, READY and every payload come as binary messages of one zlib stream, each ending in 00 00 ff ff', async () => {
    const h = await createGatewayHarness();
    const { port1, port2 } = new MessageChannel();
    const compression = { zlib: hubGatewayZlib, offered: HUB_TRANSPORT_COMPRESSIONS };
    bridgeGatewayPort(
      h.gateway,
      port2,
      '/gateway?v=10&encoding=json&compress=zlib-stream',
      undefined,
      undefined,
      compression,
    );
    const page = pageEnd(port1);
    const read = streamReader();
    const messages = async (count: number) => {
      await page.waitFor(() => page.received.filter((e) => e.type === 'message').length >= count);
      return page.received.filter((e) => e.type === 'message').map((e) => (e as { data: ArrayBuffer }).data);
    };
    const [hello] = await messages(1);
    expect(hello).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(hello).slice(-4)]).toEqual([0, 0, 0xff, 0xff]);
    expect(JSON.parse(await read(hello)).op).toBe(10);
    page.send({ op: 2, d: { token: h.world.aliceAuth, properties: { os: 'linux', browser: 'test', device: 'test' } } });
    const [, ready] = await messages(2);
    expect([...new Uint8Array(ready).slice(-4)]).toEqual([0, 0, 0xff, 0xff]);
    expect(JSON.parse(await read(ready))).toMatchObject({ op: 0, t: 'READY' });
    port1.close();
  });

  it("Identify's compress: true makes each later payload a zlib stream of its own; without compression the gateway speaks text", async () => {
    const h = await createGatewayHarness();
    const { port1, port2 } = new MessageChannel();
    const compression = { zlib: hubGatewayZlib, offered: HUB_TRANSPORT_COMPRESSIONS };
    bridgeGatewayPort(h.gateway, port2, '/gateway?v=10&encoding=json', undefined, undefined, compression);
    const page = pageEnd(port1);
    const hello = await page.waitFor((e) => e.type === 'message');
    expect(typeof (hello as { data: unknown }).data).toBe('string');
    page.send({
      op: 2,
      d: { token: h.world.aliceAuth, compress: true, properties: { os: 'linux', browser: 'test', device: 'test' } },
    });
    const ready = await page.waitFor((e) => e.type === 'message' && typeof e.data !== 'string');
    expect(JSON.parse(inflateSync(Buffer.from((ready as { data: ArrayBuffer }).data)).toString('utf8'))).toMatchObject({
      t: 'READY',
    });
    port1.close();
  });

  it('zstd-stream, which the shared worker has no zlib for, closes 4002 naming what is offered', async () => {
    const h = await createGatewayHarness();
    const { port1, port2 } = new MessageChannel();
    const compression = { zlib: hubGatewayZlib, offered: HUB_TRANSPORT_COMPRESSIONS };
    bridgeGatewayPort(
      h.gateway,
      port2,
      '/gateway?v=10&encoding=json&compress=zstd-stream',
      undefined,
      undefined,
      compression,
    );
    const page = pageEnd(port1);
    const closed = (await page.waitFor((e) => e.type === 'close')) as { code: number; reason: string };
    expect(closed.code).toBe(4002);
    expect(closed.reason).toContain('zlib-stream');
  });
});

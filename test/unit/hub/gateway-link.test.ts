// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { bridgeGatewayLink } from '../../../src/hub/gateway-link';
import type { GatewayLinkEvents, GatewayLinkRequest, GatewaySocketEvent } from '../../../src/hub/protocol';
import { createGatewayHarness } from '../gateway/gateway-harness';

const IDENTIFY = { properties: { os: 'linux', browser: 'test', device: 'test' } };

/** A page's end of a gateway link: each message it received, and a wait. */
function pageEnd(port: MessagePort) {
  const messages: GatewayLinkEvents[] = [];
  port.addEventListener('message', (event: MessageEvent<GatewayLinkEvents>) => messages.push(event.data));
  port.start();
  const of = (id: number): GatewaySocketEvent[] => messages.flat().flatMap(([at, e]) => (at === id ? [e] : []));
  const waitFor = async (id: number, match: (e: GatewaySocketEvent) => boolean) => {
    for (let i = 0; i < 400; i++) {
      const hit = of(id).find(match);
      if (hit) return hit;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`timed out; received ${JSON.stringify(messages)}`);
  };
  const post = (request: GatewayLinkRequest) => port.postMessage(request);
  return { messages, of, waitFor, post };
}

const isDispatch = (t: string) => (e: GatewaySocketEvent) =>
  e.type === 'message' && typeof e.data === 'string' && e.data.includes(`"t":"${t}"`);

describe("the hub's end of a page's gateway link", () => {
  it("carries each of the page's sockets under its id, and what the gateway sends them in one turn as one message", async () => {
    const h = await createGatewayHarness();
    const { port1, port2 } = new MessageChannel();
    bridgeGatewayLink(h.gateway, port2);
    const page = pageEnd(port1);
    for (const id of [1, 2]) {
      page.post({ id, type: 'open', url: '/gateway?v=10&encoding=json' });
      page.post({ id, type: 'send', data: JSON.stringify({ op: 2, d: { token: h.world.aliceAuth, ...IDENTIFY } }) });
    }
    await page.waitFor(1, isDispatch('READY'));
    await page.waitFor(2, isDispatch('READY'));
    expect(page.of(1)[0]).toEqual({ type: 'open' });
    const before = page.messages.length;
    await h.gateway.reconnectAll();
    await page.waitFor(2, (e) => e.type === 'close');
    // Opcode 7 and the close, to both sockets: one message.
    expect(page.messages.length).toBe(before + 1);
    expect(page.messages[before].map(([id, e]) => [id, e.type])).toEqual([
      [1, 'message'],
      [1, 'close'],
      [2, 'message'],
      [2, 'close'],
    ]);
    port1.close();
  });

  it('a page that is gone drops each of its sockets as 1006, and the page may close one it already closed', async () => {
    const h = await createGatewayHarness();
    const { port1, port2 } = new MessageChannel();
    const abandons: (() => void)[] = [];
    let letGo = 0;
    bridgeGatewayLink(h.gateway, port2, (release) => {
      abandons.push(release);
      return () => letGo++;
    });
    const page = pageEnd(port1);
    page.post({ id: 7, type: 'open', url: '/gateway?v=10&encoding=json' });
    page.post({ id: 8, type: 'open', url: '/gateway?v=10&encoding=json' });
    page.post({ id: 8, type: 'close', code: 1000, reason: 'bye' });
    await page.waitFor(8, (e) => e.type === 'close');
    expect(letGo).toBe(1);
    for (const abandon of abandons) abandon();
    expect(await page.waitFor(7, (e) => e.type === 'close')).toEqual({
      type: 'close',
      code: 1006,
      reason: '',
      wasClean: false,
    });
    expect(page.of(8).filter((e) => e.type === 'close')).toEqual([
      { type: 'close', code: 1000, reason: 'bye', wasClean: true },
    ]);
    expect(letGo).toBe(2);
    port1.close();
  });

  it('a socket refused at once (a bad URL) closes with its code, and its id carries nothing after', async () => {
    const h = await createGatewayHarness();
    const { port1, port2 } = new MessageChannel();
    bridgeGatewayLink(h.gateway, port2);
    const page = pageEnd(port1);
    page.post({ id: 1, type: 'open', url: '/gateway?v=7&encoding=json' });
    page.post({ id: 1, type: 'send', data: '{"op":1,"d":null}' });
    expect(await page.waitFor(1, (e) => e.type === 'close')).toMatchObject({ code: 4012, wasClean: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(page.of(1).map((e) => e.type)).toEqual(['open', 'close']);
    port1.close();
  });
});

// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { bridgeGatewayPort } from '../../../src/hub/gateway-port';
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
      ((await page.waitFor((e) => e.type === 'message' && e.data.includes('"READY"'))) as { data: string }).data,
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

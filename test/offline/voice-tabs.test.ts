/**
 * Voice between two tabs of the built site, through nothing but the package's exports the host
 * page puts on `globalThis.platformpp` (CONTRACT §4): `VoiceGatewaySocket` reaches the voice
 * gateway as `GatewaySocket` reaches the gateway, and the game SDK's `Client` in each tab places
 * one lobby call whose audio goes from tab to tab, end-to-end encrypted. Every wait is on a
 * condition; levels are sampled over time (the fake microphone beeps).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT, world } from './demo-page';
import { launchChromium, serveSite, type SiteServer } from './site-server';
import { hangUp, joinTwo, listen, platformReady } from './voice-call';

/** A JSON call from the page, answered by its service worker. */
function api(page: Page, method: string, path: string, body?: unknown): Promise<any> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status >= 400) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
      return text ? JSON.parse(text) : null;
    },
    { method, path, body },
  );
}

describe('voice between two tabs of the built site, with the exports on globalThis.platformpp', () => {
  let site: SiteServer;
  let browser: Browser;
  let context: BrowserContext;
  const uncaught: string[] = [];

  const open = async (path: string): Promise<Page> => {
    const page = await context.newPage();
    page.on('pageerror', (error) => uncaught.push(`${path}: ${error.message}`));
    await page.goto(path);
    await platformReady(page, 30_000);
    return page;
  };

  beforeAll(async () => {
    site = await serveSite(ROOT, inject('offlineSiteDir'));
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: site.baseURL });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it('VoiceGatewaySocket is on globalThis.platformpp and reaches the voice gateway (Hello; 4020 without a version)', async () => {
    const page = await open('/');
    const answers = await page.evaluate(async () => {
      const { VoiceGatewaySocket, VOICE_OPCODES } = (globalThis as any).platformpp;
      const first = (socket: any, type: string) =>
        new Promise<any>((resolve) => socket.addEventListener(type, resolve, { once: true }));
      const versioned = new VoiceGatewaySocket('/voice?v=8');
      const hello = JSON.parse((await first(versioned, 'message')).data);
      versioned.close(1000);
      const unversioned = new VoiceGatewaySocket('/voice');
      const closed = await first(unversioned, 'close');
      return { hello: hello.op === VOICE_OPCODES.HELLO, interval: hello.d.heartbeat_interval, refused: closed.code };
    });
    expect(answers).toEqual({ hello: true, interval: expect.any(Number), refused: 4020 });
    await page.close();
  });

  it('a lobby call between two tabs: the second tab hears the first, every frame decrypted', async () => {
    const first = await open('/');
    // The demo seeds its own world on a first visit: wait for it, so our fixtures are not raced.
    await expect.poll(() => world(first), { timeout: 30_000 }).not.toBeNull();
    const second = await open('/?as=bob');
    const users = await joinTwo((method, path, body) => api(first, method, path, body), [first, second], {
      name: 'Tab Voice',
      usernames: ['tab-one', 'tab-two'],
      secret: 'tabs',
    });

    const heard = await listen(second, users[0].id);
    expect(heard.peak).toBeGreaterThan(-40);
    expect(heard).toMatchObject({ e2ee: true, undecryptable: 0 });
    expect(heard.decrypted).toBeGreaterThan(50);

    await hangUp([first, second]);
    expect(uncaught).toEqual([]);
  });
});

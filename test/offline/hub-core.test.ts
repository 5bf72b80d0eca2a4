/**
 * The built shared worker starts small: its entry (`hub-worker-<hash>.js`) answers pages, and
 * imports the store and the gateways (`hub-core-<hash>.js`) at once, without waiting for them
 * before it answers. Offline after the first visit stays whole: that script is in the precache,
 * and a new start of the hub with no network and no server loads it and serves the gateway. A
 * core that cannot load leaves the hub answering, and each gateway socket closed 1011.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/** Opens the host page and waits until `<pp-platform>` says it runs. */
async function openHost(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/');
  await page.waitForFunction(() => ['ready', 'offline'].includes(document.documentElement.dataset.status ?? ''));
  return page;
}

/** The incarnation of the hub the page's `<pp-platform>` reaches (a new start has a new one). */
function hubIncarnation(page: Page): Promise<string> {
  return page.evaluate(() =>
    (document.querySelector('pp-platform') as unknown as { hub: { incarnation(): Promise<string> } }).hub.incarnation(),
  );
}

/** How a gateway socket opened in the page first hears from the hub: its first payload's opcode, or its close. */
function firstGatewayOutcome(page: Page): Promise<{ op: number } | { code: number; reason: string }> {
  return page.evaluate(
    () =>
      new Promise<{ op: number } | { code: number; reason: string }>((resolve) => {
        const { GatewaySocket } = (globalThis as unknown as { platformpp: typeof import('../../src/index') })
          .platformpp;
        const socket = new GatewaySocket('/gateway?v=10&encoding=json');
        socket.addEventListener('message', (event) => {
          resolve({ op: JSON.parse(String((event as MessageEvent).data)).op });
          socket.close();
        });
        socket.addEventListener('close', (event) => {
          const { code, reason } = event as CloseEvent;
          resolve({ code, reason });
        });
      }),
  );
}

/** The opcode of the first payload a gateway socket opened in the page receives (10: Hello). */
async function firstGatewayOpcode(page: Page): Promise<number> {
  const outcome = await firstGatewayOutcome(page);
  if ('op' in outcome) return outcome.op;
  throw new Error(`closed ${outcome.code}: ${outcome.reason}`);
}

describe('the shared worker starts small, and stays whole offline', () => {
  const siteDir = inject('offlineSiteDir');
  let site: SiteServer;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    site = await serveSite(fileURLToPath(new URL('../..', import.meta.url)), siteDir);
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: site.baseURL });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it("the hub's entry imports its core, and the core is in the precache", async () => {
    const assets = readdirSync(join(siteDir, 'assets'));
    const entry = assets.filter((file) => /^hub-worker-[\w-]+\.js$/.test(file));
    const core = assets.filter((file) => /^hub-core-[\w-]+\.js$/.test(file));
    expect(entry).toHaveLength(1);
    expect(core).toHaveLength(1);
    expect(readFileSync(join(siteDir, 'assets', entry[0]), 'utf8')).toContain(`import(\`./${core[0]}\`)`);
    const page = await openHost(context);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(cached).toContain(`/assets/${core[0]}`);
    expect(await firstGatewayOpcode(page)).toBe(10);
    await page.close();
  });

  it('a core that cannot load: the hub still answers the page, and each gateway socket is closed 1011', async () => {
    const broken = await browser.newContext({ baseURL: site.baseURL });
    try {
      const before = await openHost(broken);
      // The core leaves the precache, and offline the network cannot give it either.
      await before.evaluate(async () => {
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys())
            if (/\/assets\/hub-core-[\w-]+\.js$/.test(new URL(request.url).pathname)) await cache.delete(request);
        }
      });
      // With the last page closed the browser stops the hub: the next page starts it again.
      await before.close();
      await broken.setOffline(true);
      const page = await openHost(broken);
      expect(await hubIncarnation(page)).toMatch(/\w/);
      for (let i = 0; i < 2; i++)
        expect(await firstGatewayOutcome(page)).toEqual({ code: 1011, reason: 'The gateway could not start.' });
    } finally {
      await broken.close();
    }
  });

  it('offline, with the server gone, a new start of the hub loads its core and serves the gateway', async () => {
    const before = await openHost(context);
    const first = await hubIncarnation(before);
    // The hub lives while a page holds it: with the last page closed the browser stops it.
    await before.close();
    await context.setOffline(true);
    await site.server.close();
    const page = await openHost(context);
    expect(await page.evaluate(() => document.documentElement.dataset.status)).toBe('offline');
    expect(await hubIncarnation(page)).not.toBe(first);
    expect(await firstGatewayOpcode(page)).toBe(10);
  });
});

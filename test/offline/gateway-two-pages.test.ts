/**
 * Issue 3, "two pages (two users) connected to one shared worker see each other's lobby
 * messages in order": the built site in two tabs of one browser, each page with a
 * `GatewaySocket` of its own from `globalThis.platformpp` (CONTRACT §4) as a different user.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/** Opens the host page and waits until the platform is ready and its exports are on globalThis. */
async function hostPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/');
  await page.waitForFunction(() => document.documentElement.dataset.status === 'ready' && 'platformpp' in globalThis);
  return page;
}

/** Connects the page's own GatewaySocket as the user of `auth`, recording every LOBBY_MESSAGE_CREATE it gets. */
function connect(page: Page, auth: string): Promise<void> {
  return page.evaluate(async (token) => {
    const { GatewaySocket } = (globalThis as any).platformpp;
    const socket: WebSocket = new GatewaySocket('/gateway?v=10&encoding=json');
    const seen: { s: number; content: string; author: string }[] = [];
    (globalThis as any).lobbyMessages = seen;
    await new Promise<void>((ready, fail) => {
      socket.addEventListener('message', (event) => {
        const payload = JSON.parse((event as MessageEvent).data);
        if (payload.op === 10)
          socket.send(
            JSON.stringify({
              op: 2,
              d: { token, intents: 0, properties: { os: 'browser', browser: 'chromium', device: 'test' } },
            }),
          );
        if (payload.t === 'READY') ready();
        if (payload.t === 'LOBBY_MESSAGE_CREATE')
          seen.push({ s: payload.s, content: payload.d.content, author: payload.d.author.id });
      });
      socket.addEventListener('close', (event) => fail(new Error(`gateway closed ${(event as CloseEvent).code}`)));
    });
  }, auth);
}

/** Posts one lobby message from the page, as the user of `auth`. */
function post(page: Page, lobbyId: string, auth: string, content: string): Promise<number> {
  return page.evaluate(
    async ({ lobbyId, auth, content }) => {
      const response = await fetch(`/api/v10/lobbies/${lobbyId}/messages`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content }),
      });
      return response.status;
    },
    { lobbyId, auth, content },
  );
}

describe('two pages, two users, one shared worker: each sees all lobby messages in the same order', () => {
  let site: SiteServer;
  let browser: Browser;

  beforeAll(async () => {
    site = await serveSite(fileURLToPath(new URL('../..', import.meta.url)), inject('offlineSiteDir'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it("alternate posts from two pages reach both pages' GatewaySockets, in one order, with increasing seq", async () => {
    const context = await browser.newContext({ baseURL: site.baseURL });
    const alicePage = await hostPage(context);
    const bobPage = await hostPage(context);
    const world = await alicePage.evaluate(async () => {
      const send = async (method: string, path: string, body?: unknown, auth?: string) =>
        (
          await fetch(path, {
            method,
            headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) },
            body: body === undefined ? undefined : JSON.stringify(body),
          })
        ).json();
      const suffix = Math.random().toString(36).slice(2, 8);
      const alice = (await send('POST', '/sandbox/users', { username: `pages_alice_${suffix}` })).user;
      const bob = (await send('POST', '/sandbox/users', { username: `pages_bob_${suffix}` })).user;
      const app = await send('POST', '/sandbox/applications', { name: 'Two pages' });
      const token = async (userId: string) =>
        `Bearer ${(await send('POST', '/sandbox/tokens', { application_id: app.application.id, user_id: userId, scopes: 'openid sdk.social_layer' })).access_token}`;
      const aliceAuth = await token(alice.id);
      const bobAuth = await token(bob.id);
      const lobby = await send('PUT', '/api/v10/lobbies', { secret: `pages-${suffix}` }, aliceAuth);
      await send('PUT', '/api/v10/lobbies', { secret: `pages-${suffix}` }, bobAuth);
      return { lobbyId: lobby.id as string, alice: alice.id as string, bob: bob.id as string, aliceAuth, bobAuth };
    });
    await connect(alicePage, world.aliceAuth);
    await connect(bobPage, world.bobAuth);
    // One shared worker: both pages reach the same start of the hub.
    const incarnation = (page: Page) =>
      page.evaluate(() => (globalThis as any).platformpp.hub().incarnation() as Promise<string>);
    expect(await incarnation(bobPage)).toBe(await incarnation(alicePage));

    const contents = Array.from({ length: 8 }, (_, i) => `m${i}`);
    for (const [i, content] of contents.entries()) {
      const [page, auth] = i % 2 === 0 ? [alicePage, world.aliceAuth] : [bobPage, world.bobAuth];
      expect(await post(page, world.lobbyId, auth, content)).toBe(201);
    }

    const seenBy = async (page: Page) => {
      await page.waitForFunction((count) => (globalThis as any).lobbyMessages.length >= count, contents.length);
      return page.evaluate(() => (globalThis as any).lobbyMessages as { s: number; content: string; author: string }[]);
    };
    const [aliceSaw, bobSaw] = [await seenBy(alicePage), await seenBy(bobPage)];
    for (const saw of [aliceSaw, bobSaw]) {
      expect(saw.map((m) => m.content)).toEqual(contents);
      expect(saw.map((m) => m.author)).toEqual(contents.map((_, i) => (i % 2 === 0 ? world.alice : world.bob)));
      expect(saw.map((m) => m.s)).toEqual([...saw.map((m) => m.s)].sort((a, b) => a - b));
    }
    await context.close();
  });
});

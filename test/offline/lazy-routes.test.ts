/**
 * The built service worker starts small: `sw.js` holds what every start needs (the lobbies'
 * routes among it) and runs the platform's other routes (`sw-routes-<hash>.js`) on first use.
 * Offline after the first visit stays whole: that script is in the precache, and a start after a
 * stop runs it from there with no network and no server. It is not one of the worker's installed
 * scripts, which the browser would hand to every start.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page, Worker } from 'playwright-core';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/** A request from inside the page, which the service worker answers. */
function call(page: Page, method: string, path: string, body?: unknown, auth?: string) {
  return page.evaluate(
    async ({ method, path, body, auth }) => {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (auth) headers.Authorization = auth;
      const response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body, auth },
  );
}

/** Stops every service worker through the DevTools protocol, resolving once one reports stopped. */
async function stopWorkers(cdp: CDPSession): Promise<void> {
  const stopped = new Promise<void>((resolve) => {
    const listener = (event: { versions: Array<{ runningStatus: string }> }) => {
      if (event.versions.some((version) => version.runningStatus === 'stopped')) {
        cdp.off('ServiceWorker.workerVersionUpdated', listener);
        resolve();
      }
    };
    cdp.on('ServiceWorker.workerVersionUpdated', listener);
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await stopped;
}

/** Whether the running start of the worker has run the routes' script (the global it sets). */
async function routesLoaded(context: BrowserContext, site: SiteServer): Promise<boolean> {
  const worker = context.serviceWorkers().find((w: Worker) => w.url() === `${site.baseURL}sw.js`);
  if (!worker) throw new Error('no service worker is running');
  return worker.evaluate(
    () => typeof (self as unknown as { platformppRoutes?: unknown }).platformppRoutes === 'object',
  );
}

describe('the service worker starts small, and stays whole offline', () => {
  const siteDir = inject('offlineSiteDir');
  let site: SiteServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let lobbyId: string;
  let auth: string;

  beforeAll(async () => {
    site = await serveSite(fileURLToPath(new URL('../..', import.meta.url)), siteDir);
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: site.baseURL });
    page = await context.newPage();
    await page.goto('/');
    await page.waitForFunction(() => document.documentElement.dataset.status === 'ready');
    const app = (await call(page, 'POST', '/sandbox/applications', { name: 'Game' })).body;
    const user = (await call(page, 'POST', '/sandbox/users', { username: 'reader' })).body.user;
    const token = await call(page, 'POST', '/sandbox/tokens', {
      application_id: app.application.id,
      user_id: user.id,
      scopes: 'openid sdk.social_layer',
    });
    auth = `Bearer ${token.body.access_token}`;
    lobbyId = (await call(page, 'PUT', '/api/v10/lobbies', { secret: 'small' }, auth)).body.id;
    expect((await call(page, 'POST', `/api/v10/lobbies/${lobbyId}/messages`, { content: 'hello' }, auth)).status).toBe(
      201,
    );
    // From here on a page that asks the worker for nothing itself (the host page's own requests
    // would load the routes): the sample activity's page, outside a frame it waits for its host.
    const quiet = await context.newPage();
    await quiet.goto('/activities/tic-tac-toe/index.html');
    await quiet.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.close();
    page = quiet;
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it('every script the worker imports on first use is in its precache', async () => {
    const scripts = readdirSync(siteDir).filter((file) => /^sw-routes-[0-9a-f]+\.js$/.test(file));
    expect(scripts).toHaveLength(1);
    // sw.js names the script it runs (a new name for new contents, so an update finds it), and
    // does not import it: an imported script would be handed to every start of the worker.
    const sw = readFileSync(join(siteDir, 'sw.js'), 'utf8');
    expect(sw.includes(scripts[0])).toBe(true);
    expect(sw.includes('importScripts(')).toBe(false);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(cached).toContain(`/${scripts[0]}`);
  });

  it("a start reads a lobby's messages without loading the routes' script", async () => {
    const cdp = await context.newCDPSession(page);
    await stopWorkers(cdp);
    const read = await call(page, 'GET', `/api/v10/lobbies/${lobbyId}/messages?limit=200`, undefined, auth);
    expect(read.status).toBe(200);
    expect(read.body.map((message: { content: string }) => message.content)).toEqual(['hello']);
    expect(await routesLoaded(context, site)).toBe(false);
    await cdp.detach();
  });

  it("offline after a stop, a route of the routes' script answers (run from the precache)", async () => {
    await context.setOffline(true);
    await site.server.close();
    const cdp = await context.newCDPSession(page);
    await stopWorkers(cdp);
    const me = await call(page, 'GET', '/api/v10/users/@me', undefined, auth);
    expect(me).toMatchObject({ status: 200, body: { username: 'reader' } });
    expect(await routesLoaded(context, site)).toBe(true);
    // And the lobby's messages still answer from the same start, now with every route loaded.
    const read = await call(page, 'GET', `/api/v10/lobbies/${lobbyId}/messages`, undefined, auth);
    expect(read.status).toBe(200);
    await cdp.detach();
  });
});

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/** What the page's script reports once the service worker controls it. */
function pageStatus(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.documentElement.dataset.status);
}

/** Fetches from inside the page, so the service worker sees it as the page's own request. */
function fetchInPage(page: Page, path: string) {
  return page.evaluate(async (url) => {
    const response = await fetch(url);
    return { status: response.status, servedBy: response.headers.get('x-served-by'), body: await response.text() };
  }, path);
}

/** Resolves when the DevTools protocol reports the service worker in `status`. */
function workerStatus(cdp: CDPSession, status: 'stopped' | 'running'): Promise<void> {
  return new Promise((resolve) => {
    const listener = (event: { versions: Array<{ runningStatus: string }> }) => {
      if (event.versions.some((version) => version.runningStatus === status)) {
        cdp.off('ServiceWorker.workerVersionUpdated', listener);
        resolve();
      }
    };
    cdp.on('ServiceWorker.workerVersionUpdated', listener);
  });
}

describe('the built site works offline (CONTRACT §1)', () => {
  let site: SiteServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    site = await serveSite(fileURLToPath(new URL('../..', import.meta.url)), inject('offlineSiteDir'));
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: site.baseURL });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it('is controlled by the service worker on the first visit, with no reload', async () => {
    await page.goto('/');
    await page.waitForFunction(() => document.documentElement.dataset.status === 'ready');
    expect(await page.title()).toBe('platformpp');
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${site.baseURL}sw.js`);
    const clock = await fetchInPage(page, '/sandbox/clock');
    expect(clock).toMatchObject({ status: 200, servedBy: 'platformpp-sw' });
  });

  it('is controlled again after a hard reload, which bypasses the worker', async () => {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Page.reload', { ignoreCache: true });
    await page.waitForFunction(() => document.documentElement.dataset.status === 'ready');
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await cdp.detach();
  });

  it('loads from the precache and answers the API with no network and no server', async () => {
    await context.setOffline(true);
    await site.server.close();
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.status === 'offline');
    expect(await page.title()).toBe('platformpp');

    const clock = await fetchInPage(page, '/sandbox/clock');
    expect(clock).toMatchObject({ status: 200, servedBy: 'platformpp-sw' });
    expect(Number.isNaN(Date.parse(JSON.parse(clock.body).now))).toBe(false);
  });

  it('answers /.proxy/<path> as /<path> offline, with or without a query string', async () => {
    const [direct, proxied, withQuery] = await Promise.all([
      fetchInPage(page, '/'),
      fetchInPage(page, '/.proxy/'),
      fetchInPage(page, '/.proxy/index.html?frame_id=1&instance_id=2'),
    ]);
    expect(direct.status).toBe(200);
    expect(direct.body).toContain('<title>platformpp</title>');
    expect(proxied).toEqual(direct);
    expect(withQuery).toEqual(direct);
  });

  it('answers again after the browser stops the worker (state is not in memory)', async () => {
    const cdp = await context.newCDPSession(page);
    // Listening before `enable`, whose first report may already say the worker is stopped.
    const stopped = workerStatus(cdp, 'stopped');
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await stopped;

    const restarted = workerStatus(cdp, 'running');
    const clock = await fetchInPage(page, '/sandbox/clock');
    await restarted;
    expect(clock).toMatchObject({ status: 200, servedBy: 'platformpp-sw' });
    await cdp.detach();
  });
});

/**
 * `stop_service_worker` on the built demo in real Chromium (docs/faults.md, "Stopping the service
 * worker"): the demo's `<pp-platform>` hears the fault, a new start of the built `/sw.js` takes
 * over, the old one lets go, the state seeded before answers from IndexedDB, and the event stream
 * shows the fault and the recovery. Offline, the script cannot be fetched again: the old start
 * keeps answering.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lounge, ROOT, world } from './demo-page';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/** The starts of the service worker that run: each holds a Web Lock of its own (`sw/sw.ts`). */
function serviceWorkerStarts(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    ((await navigator.locks.query()).held ?? [])
      .map((lock) => lock.name ?? '')
      .filter((name) => name.startsWith('platformpp-sw-start:')),
  );
}

/** Injects the fault from the page and answers the time until `<pp-platform>` said the new start controls it. */
function stopFromPage(page: Page): Promise<{ status: number; ms: number; controller: string; detail: any }> {
  return page.evaluate(async () => {
    const platform = document.querySelector('pp-platform')!;
    const restarted = new Promise<any>((resolve) =>
      platform.addEventListener('pp-service-worker-restart', (e) => resolve((e as CustomEvent).detail), {
        once: true,
      }),
    );
    const started = performance.now();
    const response = await fetch('/sandbox/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'stop_service_worker' }),
    });
    const detail = await restarted;
    return {
      status: response.status,
      ms: performance.now() - started,
      controller: navigator.serviceWorker.controller?.scriptURL ?? '',
      detail,
    };
  });
}

describe('stop_service_worker on the built demo', () => {
  let site: SiteServer;
  let browser: Browser;

  beforeAll(async () => {
    site = await serveSite(ROOT, inject('offlineSiteDir'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it('a new start of the built worker takes over the demo, the old one stops, and the seeded world answers', async () => {
    const context = await browser.newContext({ baseURL: site.baseURL });
    const page = await context.newPage();
    await page.goto('/?as=alice');
    await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
    const seeded = await world(page);
    const before = await serviceWorkerStarts(page);
    expect(before).toHaveLength(1);

    const stop = await stopFromPage(page);
    expect(stop.status).toBe(201);
    expect(stop.controller).toMatch(/\/sw\.js\?start=\d+$/);
    const started = Date.now();
    await expect
      .poll(async () => {
        const now = await serviceWorkerStarts(page);
        return now.length === 1 && now[0] !== before[0];
      })
      .toBe(true);
    const stoppedAfter = Date.now() - started;

    const user = await page.evaluate(async (id) => (await fetch(`/sandbox/users/${id}`)).status, seeded.users[0].id);
    expect(user).toBe(200);
    // The demo still talks to the platform: its lobby history is read again after a reload.
    await page.reload();
    await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(stop.controller);
    console.info(
      `built demo, stop_service_worker: the new start controls the page ${Math.round(stop.ms)} ms after the injection (${Math.round(stop.detail.ms)} ms of it registering), the old start's lock freed ${stoppedAfter} ms later`,
    );
    await context.close();
  });

  it('offline the new start cannot be fetched: the old start keeps answering', async () => {
    const context = await browser.newContext({ baseURL: site.baseURL });
    const page = await context.newPage();
    await page.goto('/?as=bob');
    await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
    const before = await serviceWorkerStarts(page);
    await context.setOffline(true);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const status = await page.evaluate(
      async () =>
        (
          await fetch('/sandbox/faults', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ type: 'stop_service_worker' }),
          })
        ).status,
    );
    expect(status).toBe(201);
    await expect.poll(() => errors.some((e) => e.includes('the service worker did not restart'))).toBe(true);
    expect(await serviceWorkerStarts(page)).toEqual(before);
    expect(await page.evaluate(async () => (await fetch('/sandbox/clock')).status)).toBe(200);
    await context.setOffline(false);
    await context.close();
  });
});

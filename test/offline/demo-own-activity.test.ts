/**
 * The demo's "Run your own activity" (built site, real Chromium): a path of the demo's origin
 * runs as an activity for an application id the sandbox did not have (it is created); a page
 * of another origin that sends the headers a cross-origin isolated page needs shakes hands;
 * one that does not is refused by the browser, and the demo says what to do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { navLink, ROOT, WIDE } from './demo-page';
import { launchChromium, serveSite, type SiteServer } from './site-server';

const OWN_ID = '1234567890123456789';

/**
 * An activity page on another origin that speaks the embedded-app protocol by hand: HANDSHAKE
 * to its parent, READY written into the page.
 */
const HANDSHAKING_PAGE = `<!doctype html><meta charset="utf-8"><p id="state">loading</p><script>
  const params = new URLSearchParams(location.search);
  const host = new URL(document.referrer).origin;
  addEventListener('message', (event) => {
    if (event.origin === host && event.data[0] === 1 && event.data[1].evt === 'READY') document.getElementById('state').textContent = 'ready';
  });
  parent.postMessage([0, { v: 1, encoding: 'json', client_id: params.get('client_id'), frame_id: params.get('frame_id') }], host);
</script>`;

/** Serves the page on another origin, with the cross-origin isolation headers or without them. */
function startOtherOrigin(isolated: boolean): Promise<Server> {
  const server = createServer((_req, res) => {
    const headers: Record<string, string> = { 'Content-Type': 'text/html' };
    if (isolated) {
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
      headers['Cross-Origin-Resource-Policy'] = 'cross-origin';
    }
    res.writeHead(200, headers).end(HANDSHAKING_PAGE);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('the demo’s "Run your own activity"', () => {
  let site: SiteServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const others: Server[] = [];

  const run = async (src: string, applicationId: string) => {
    const control = page.locator('demo-own-activity');
    await control.getByLabel('Activity URL').fill(src);
    await control.getByLabel('Its application id (client id)').fill(applicationId);
    await control.getByRole('button', { name: /^Run/ }).click();
    return control;
  };

  beforeAll(async () => {
    site = await serveSite(ROOT, inject('offlineSiteDir'));
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: site.baseURL, viewport: WIDE });
    page = await context.newPage();
    await page.goto('/');
    await page.locator('html[data-status="ready"]').waitFor({ timeout: 20_000 });
    await navLink(page, 'Game Room').click({ timeout: 20_000 });
    await page.getByText('Run your own activity').click();
  });

  afterAll(async () => {
    for (const server of others) server.close();
    await browser?.close();
    await site?.server.close();
  });

  it('a path of this origin, for an application id the sandbox did not have: it is created, and the activity runs', async () => {
    const control = await run(`/activities/tic-tac-toe/?client_id=${OWN_ID}`, OWN_ID);
    await page.getByRole('dialog').getByRole('button', { name: 'Authorize' }).click({ timeout: 15_000 });
    await control.getByText('RPC: ready').waitFor({ timeout: 15_000 });
    const game = page.frameLocator('demo-own-activity pp-activity-frame iframe');
    await game.getByRole('button', { name: 'centre: empty' }).waitFor({ timeout: 15_000 });
  });

  it('a page of another origin that sends COEP require-corp and CORP cross-origin shakes hands', async () => {
    const server = await startOtherOrigin(true);
    others.push(server);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const control = await run(`${origin}/?client_id=${OWN_ID}`, OWN_ID);
    await control.getByText('RPC: ready').waitFor({ timeout: 15_000 });
    const frame = page.frameLocator('demo-own-activity pp-activity-frame iframe');
    expect(await frame.locator('#state').textContent()).toBe('ready');
  });

  it('a page of another origin without them is refused by the browser, and the demo says which headers it needs', async () => {
    const server = await startOtherOrigin(false);
    others.push(server);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const control = await run(`${origin}/?client_id=${OWN_ID}`, OWN_ID);
    const alert = control.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('Cross-Origin-Resource-Policy: cross-origin');
    expect(await control.getByRole('status').textContent()).not.toContain('ready');
    // The browser showed its own error page instead of the activity.
    const frame = page.frameLocator('demo-own-activity pp-activity-frame iframe');
    expect(await frame.locator('#state').count()).toBe(0);
  });
});

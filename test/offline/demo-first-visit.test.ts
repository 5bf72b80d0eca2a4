/**
 * The demo page's first visit, each in a browser profile of its own: it says plainly that it is
 * installing, then seeding (held at each step so the words can be read and saved as screenshots
 * at both sizes); the seeded world is recorded in IndexedDB, so clearing localStorage seeds
 * nobody twice; and the shell works from the keyboard alone.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  lounge,
  navLink,
  platformUsernames,
  ROOT,
  SCREENSHOTS,
  settle,
  SIZES,
  statusLine,
  WIDE,
  world,
} from './demo-page';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/**
 * Runs before the page's own scripts: the service worker's registration and the seed's first
 * request wait until the test opens their gate (`__openGate('install')`, `__openGate('seed')`).
 */
function holdInstallAndSeed(): void {
  const opened: Record<string, () => void> = {};
  const gate = (name: string) => new Promise<void>((resolve) => (opened[name] = resolve));
  const install = gate('install');
  const seed = gate('seed');
  (globalThis as { __openGate?: (name: string) => void }).__openGate = (name) => opened[name]();
  const register = ServiceWorkerContainer.prototype.register;
  ServiceWorkerContainer.prototype.register = function (
    this: ServiceWorkerContainer,
    ...args: Parameters<typeof register>
  ) {
    return install.then(() => register.apply(this, args));
  };
  const send = globalThis.fetch;
  globalThis.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    const request = input instanceof Request ? input : null;
    const url = request ? request.url : String(input);
    const method = init?.method ?? request?.method ?? 'GET';
    if (method === 'POST' && new URL(url, location.href).pathname === '/sandbox/users')
      return seed.then(() => send(input, init));
    return send(input, init);
  };
}

/** The element the keyboard is on, through the shadow roots. */
function focused(page: Page): Promise<{ tag: string; text: string; label: string | null }> {
  return page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      text: element?.textContent?.trim() ?? '',
      label: element?.getAttribute('aria-label') ?? element?.getAttribute('placeholder') ?? null,
    };
  });
}

/** Presses Tab until the focused element matches (at most `max` times). */
async function tabTo(
  page: Page,
  matches: (f: Awaited<ReturnType<typeof focused>>) => boolean,
  max = 60,
): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (matches(await focused(page))) return;
  }
  throw new Error(`Tab never reached the element; last focused: ${JSON.stringify(await focused(page))}`);
}

describe('the demo page on a first visit', () => {
  let site: SiteServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    site = await serveSite(ROOT, inject('offlineSiteDir'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it.each(SIZES)(
    'says plainly that it is installing, then seeding, at $width x $height (issue 5: "says plainly when installing")',
    async (size) => {
      const context = await browser.newContext({ baseURL: site.baseURL, viewport: size });
      try {
        await context.addInitScript(holdInstallAndSeed);
        const page = await context.newPage();
        await page.goto('/');
        await statusLine(page).getByText('Installing the platform…').waitFor({ timeout: 10_000 });
        await page.getByRole('heading', { name: 'Starting the platform in this browser…' }).waitFor();
        await settle(page);
        await page.screenshot({ path: `${SCREENSHOTS}/demo-installing-${size.width}x${size.height}.png` });

        await page.evaluate(() => (globalThis as unknown as { __openGate(name: string): void }).__openGate('install'));
        await page
          .getByRole('heading', { name: "First visit: seeding the demo data through the platform's API" })
          .waitFor({ timeout: 20_000 });
        expect(await statusLine(page).innerText()).toBe('Platform ready');
        await page.getByText('Creating the users alice, bob and chen…').waitFor();
        await settle(page);
        await page.screenshot({ path: `${SCREENSHOTS}/demo-seeding-${size.width}x${size.height}.png` });

        await page.evaluate(() => (globalThis as unknown as { __openGate(name: string): void }).__openGate('seed'));
        await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 20_000 });
        // The gateway's state shows at this size too.
        await page.getByRole('banner').getByText('Gateway connected').waitFor({ timeout: 10_000 });
      } finally {
        await context.close();
      }
    },
  );

  it('keeps the seeded world in IndexedDB: clearing localStorage and reloading seeds no second copy of anyone', async () => {
    const context = await browser.newContext({ baseURL: site.baseURL, viewport: WIDE });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
      const seeded = await world(page);
      expect(await platformUsernames(page)).toEqual(['alice', 'bob', 'chen']);
      expect(await page.evaluate(() => localStorage.length)).toBe(0);

      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
      expect(await platformUsernames(page)).toEqual(['alice', 'bob', 'chen']);
      expect((await world(page)).lobby.id).toBe(seeded.lobby.id);
      expect(await lounge(page).getByText('Welcome to the Café Lounge!').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('works from the keyboard: Tab to a channel, open it, send a message, switch developer panels', async () => {
    const context = await browser.newContext({ baseURL: site.baseURL, viewport: WIDE });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
      await navLink(page, 'general').waitFor();

      await tabTo(page, (f) => f.tag === 'a' && f.text === 'general');
      await page.keyboard.press('Enter');
      const general = page.getByRole('log', { name: 'Messages in #general' });
      await general.getByText('Welcome to Pixel Café!').waitFor({ timeout: 5000 });

      await tabTo(page, (f) => f.tag === 'textarea' && f.label === 'Message #general');
      await page.keyboard.type('Typed without a mouse');
      await page.keyboard.press('Enter');
      await general.getByText('Typed without a mouse').waitFor({ timeout: 5000 });

      // On past the end and round to the left column: the developer tools' link, then their panel tabs.
      await tabTo(page, (f) => f.tag === 'a' && f.text === 'Developer tools');
      await page.keyboard.press('Enter');
      await page.getByRole('region', { name: 'Gateway events' }).waitFor({ timeout: 5000 });
      await tabTo(page, (f) => f.tag === 'a' && f.text === 'Clock and dated rules');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Sandbox clock' }).waitFor({ timeout: 5000 });
      expect(await page.evaluate(() => location.hash)).toBe('#/dev/clock');
      await tabTo(page, (f) => f.tag === 'a' && f.text === 'Webhook deliveries');
      await page.keyboard.press('Enter');
      await page
        .getByRole('region', { name: 'Webhook deliveries' })
        .getByRole('button', { name: 'Refresh' })
        .waitFor({ timeout: 5000 });
    } finally {
      await context.close();
    }
  });
});

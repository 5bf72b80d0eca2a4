/**
 * Issue 30, item 6: the demo at `/` (built) has no serious or critical axe-core violation (WCAG
 * 2.1 A and AA, best practices) in any of its main views (a lobby, a guild channel with
 * messages, a direct message, the Game Room with the consent dialog and then Tic-Tac-Toe
 * running, the bot's view, each developer panel, and on a phone the Channels and Members panes),
 * at 1280x800 and at 390x844 as a phone (touch, mobile viewport), in the light and the dark
 * theme. Every violation found, whatever its impact, is written to
 * `test-results/a11y/axe-demo-<size>.json`. And the keyboard alone reaches the main controls,
 * each showing a focus ring.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AxeViolation, blocking, countViolations, describeViolations, runAxe } from './axe';
import { lounge, navLink, NARROW, ROOT, settle, WIDE, world } from './demo-page';
import { type Focused, focusedElement, focusRing } from './focus';
import { launchChromium, serveSite, type SiteServer } from './site-server';

const REPORTS = `${ROOT}test-results/a11y`;

/** The two form factors: a desktop window, and a phone (touch, mobile viewport). */
const DEVICES = [
  { name: `${WIDE.width}x${WIDE.height}`, options: { viewport: WIDE } },
  { name: `${NARROW.width}x${NARROW.height}`, options: { viewport: NARROW, isMobile: true, hasTouch: true } },
] as const;

/** Every violation of one view, in one theme. */
interface Finding {
  view: string;
  scheme: 'light' | 'dark';
  violations: AxeViolation[];
}

/** Goes to a view of the shell by its address, and waits until `ready` shows. */
async function go(page: Page, hash: string, ready: Locator): Promise<void> {
  await page.evaluate((h) => (location.hash = h), hash);
  await ready.waitFor({ timeout: 15_000 });
}

describe('the demo page with axe-core (issue 30: 0 serious or critical violations, light and dark)', () => {
  let site: SiteServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(REPORTS, { recursive: true });
    site = await serveSite(ROOT, inject('offlineSiteDir'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it.each(DEVICES)(
    'every main view at $name has no serious or critical violation, in the light theme and the dark',
    async ({ name, options }) => {
      const context = await browser.newContext({ baseURL: site.baseURL, ...options });
      const findings: Finding[] = [];
      try {
        const page = await context.newPage();
        const check = async (view: string) => {
          for (const scheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme: scheme });
            await settle(page);
            findings.push({ view, scheme, violations: await runAxe(page) });
          }
          await page.emulateMedia({ colorScheme: 'light' });
        };
        await page.goto('/');
        await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
        const { users, lobby, channels } = await world(page);
        // The left column is a pane of its own on a phone: its link is read, not clicked.
        const generalLink = page
          .locator('demo-nav a')
          .filter({ has: page.locator('.label', { hasText: /^general$/ }) });
        const general = (await generalLink.getAttribute('href'))!;
        // Bob writes in #general meanwhile: its unread count shows in the left column, and its "New" line in the channel.
        await page.evaluate(
          async ({ id, token }) => {
            const response = await fetch(`/api/v10/channels/${id}/messages`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
              body: JSON.stringify({ content: 'Something for you to read, Alice' }),
            });
            if (!response.ok) throw new Error(`posting: ${response.status}`);
          },
          { id: general.replace('#/channel/', ''), token: users[1].token },
        );
        await generalLink.locator('.badge').waitFor({ state: 'attached', timeout: 10_000 });
        await check('lobby');

        await go(page, general, page.getByRole('separator', { name: 'New messages' }));
        await check('channel');
        await go(page, `#/dm/${users[1].id}`, page.getByRole('log').locator('li').first());
        await check('dm');
        await go(page, '#/bot', page.getByRole('region', { name: 'Over the gateway GUILD_CREATE' }));
        await check('bot');
        await go(page, '#/dev/events', page.getByRole('region', { name: 'Gateway events' }));
        await page.getByRole('list', { name: 'Gateway payloads, newest first' }).locator('summary').first().click();
        await check('dev-events');
        await go(page, '#/dev/clock', page.getByRole('heading', { name: 'Sandbox clock' }));
        await check('dev-clock');
        await go(page, '#/dev/fixtures', page.locator('demo-fixtures td code').first());
        await check('dev-fixtures');
        await go(page, '#/dev/webhooks', page.getByRole('region', { name: 'Webhook deliveries' }).first());
        await check('dev-webhooks');

        await go(page, `#/channel/${channels.gameRoom}`, page.getByRole('button', { name: 'Start Tic-Tac-Toe' }));
        await check('game-room');
        await page.getByRole('button', { name: 'Start Tic-Tac-Toe' }).click();
        await page.getByRole('heading', { name: 'Authorize Tic-Tac-Toe' }).waitFor({ timeout: 15_000 });
        await check('consent');
        await page.getByRole('dialog').getByRole('button', { name: 'Authorize' }).click();
        await page
          .frameLocator('pp-activity-frame iframe')
          .getByRole('button', { name: 'centre: empty' })
          .waitFor({ timeout: 15_000 });
        await check('activity');

        if (options.viewport === NARROW) {
          await go(page, `#/lobby/${lobby.id}`, lounge(page).getByText('Welcome to the Café Lounge!'));
          const tabs = page.getByRole('navigation', { name: 'Panels' });
          await tabs.getByRole('button', { name: 'Channels' }).click();
          await navLink(page, 'general').waitFor();
          await check('channels-pane');
          await tabs.getByRole('button', { name: 'Members' }).click();
          await page.locator('demo-members li').first().waitFor();
          await check('members-pane');
        }
      } finally {
        writeFileSync(
          `${REPORTS}/axe-demo-${name}.json`,
          JSON.stringify(
            {
              counts: countViolations(findings.flatMap((f) => f.violations)),
              findings,
            },
            null,
            2,
          ),
        );
        await context.close();
      }
      const problems = findings.flatMap((f) =>
        describeViolations(`${f.view} ${name} ${f.scheme}`, blocking(f.violations)),
      );
      expect(problems, problems.join('\n')).toEqual([]);
    },
    180_000,
  );

  it.each(DEVICES)(
    'at $name the keyboard reaches the header (user switcher, new tab), the channel list, the message log, the send box and the developer tools, each with a visible focus ring (WCAG 2.1.1, 2.4.7)',
    async ({ options }) => {
      const context = await browser.newContext({ baseURL: site.baseURL, ...options });
      try {
        const page = await context.newPage();
        await page.goto('/');
        await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
        await settle(page);
        const wanted: Record<string, (f: Focused) => boolean> = {
          'the user switcher': (f) => f.tag === 'select' && f.html.includes('id="as"'),
          'the new tab link': (f) => f.tag === 'a' && f.text.startsWith('Open '),
          'a channel in the list': (f) => f.tag === 'a' && f.text === 'general',
          'the developer tools': (f) => f.tag === 'a' && f.text === 'Developer tools',
          'the message log': (f) => f.label === 'Messages in Café Lounge',
          'the send box': (f) => f.tag === 'textarea' && f.label === 'Message Café Lounge',
        };
        // On a phone the columns are tabs: the bar's buttons are reached, the hidden columns are not.
        if (options.viewport === NARROW) {
          delete wanted['a channel in the list'];
          delete wanted['the developer tools'];
          wanted['the Channels tab'] = (f) => f.tag === 'button' && f.text === 'Channels';
          wanted['the Members tab'] = (f) => f.tag === 'button' && f.text === 'Members';
        }
        const reached = new Set<string>();
        const noRing: string[] = [];
        for (let i = 0; i < 150 && reached.size < Object.keys(wanted).length; i++) {
          await page.keyboard.press('Tab');
          const focused = await focusedElement(page);
          if (!focused.html) continue;
          for (const [name, matches] of Object.entries(wanted)) if (matches(focused)) reached.add(name);
          if (!(await focusRing(page))) noRing.push(focused.html);
        }
        expect(Object.keys(wanted).filter((name) => !reached.has(name))).toEqual([]);
        expect(noRing, 'focused without a visible ring').toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});

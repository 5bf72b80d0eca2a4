/**
 * Issue 30, item 6: the Vite plugin's host page (`/__platformpp/`, every panel it has) with its
 * activity has no serious or critical axe-core violation (WCAG 2.1 A and AA, best practices) at
 * 1280x800 and at 390x844 as a phone, light and dark: while the consent dialog asks, and once
 * the activity runs; and the keyboard reaches each of its controls, with a visible focus ring.
 *
 * The host page is the one the package ships: the library build writes `dist/sandbox` and the
 * plugin beside it (into `test-results/a11y-host/`), and the built plugin serves a small activity
 * written with the platform's public SDK from a Vite dev server, as in a developer's project.
 * Every violation found is written to `test-results/a11y/axe-host-<size>.json`.
 */
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { build, createServer, type Plugin, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AxeViolation, blocking, countViolations, describeViolations, runAxe } from './axe';
import { NARROW, ROOT, settle, WIDE } from './demo-page';
import { focusRing, focusedElement } from './focus';
import { freePort } from './packed-project';
import { launchChromium } from './site-server';

const WORK = join(ROOT, 'test-results/a11y-host');
const PROJECT = join(WORK, 'activity');
const REPORTS = join(ROOT, 'test-results/a11y');
const CLIENT_ID = '1234567890123456789';

/** The activity: the platform's public SDK, signing in, with accessible markup. */
const ACTIVITY_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>My Activity</title></head>
  <body>
    <main aria-label="My Activity">
      <h1>My Activity</h1>
      <p>Status: <output id="status">loading</output></p>
      <button type="button" id="wave">Wave</button>
    </main>
    <script type="module">
      import { DiscordSDK } from '@discord/embedded-app-sdk';
      const sdk = new DiscordSDK('${CLIENT_ID}');
      const show = (id, text) => (document.getElementById(id).textContent = text);
      await sdk.ready();
      show('status', 'ready');
      await sdk.commands.authorize({ client_id: '${CLIENT_ID}', response_type: 'code', state: '', prompt: 'none', scope: ['identify'] });
      show('status', 'authorized');
    </script>
  </body>
</html>
`;

/** The two form factors: a desktop window, and a phone (touch, mobile viewport). */
const DEVICES = [
  { name: `${WIDE.width}x${WIDE.height}`, options: { viewport: WIDE } },
  { name: `${NARROW.width}x${NARROW.height}`, options: { viewport: NARROW, isMobile: true, hasTouch: true } },
] as const;

/** The activity's frame in the host page. */
async function activityFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().find((f) => f.url().includes('frame_id=')), { timeout: 30_000 }).toBeTruthy();
  return page.frames().find((f) => f.url().includes('frame_id='))!;
}

describe("the Vite plugin's host page with axe-core and the keyboard (issue 30)", () => {
  let server: ViteDevServer;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(PROJECT, { recursive: true });
    mkdirSync(REPORTS, { recursive: true });
    // The package's build: the library, and beside it the sandbox and the plugin.
    await build({
      root: ROOT,
      configFile: join(ROOT, 'vite.config.ts'),
      mode: 'lib',
      logLevel: 'warn',
      build: { outDir: join(WORK, 'dist/lib'), emptyOutDir: true },
    });
    const { platformpp } = (await import(pathToFileURL(join(WORK, 'dist/vite/index.js')).href)) as {
      platformpp(options: object): Plugin;
    };
    writeFileSync(join(PROJECT, 'index.html'), ACTIVITY_HTML);
    const port = await freePort();
    server = await createServer({
      root: PROJECT,
      configFile: false,
      logLevel: 'warn',
      // Kept in this run's directory: the project has no node_modules of its own.
      cacheDir: join(WORK, '.vite'),
      plugins: [platformpp({ application: { id: CLIENT_ID, name: 'My Activity' } })],
      server: {
        host: '127.0.0.1',
        port,
        strictPort: true,
        fs: { allow: [ROOT, realpathSync(join(ROOT, 'node_modules'))] },
      },
    });
    await server.listen();
    base = `http://127.0.0.1:${port}`;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(WORK, { recursive: true, force: true });
  });

  it.each(DEVICES)(
    'the host page at $name has no serious or critical violation, light and dark, with the consent dialog open and with the activity running',
    async ({ name, options }) => {
      const context = await browser.newContext(options);
      const findings: { view: string; scheme: string; violations: AxeViolation[] }[] = [];
      const check = async (page: Page, view: string) => {
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await settle(page);
          findings.push({ view, scheme, violations: await runAxe(page) });
        }
        await page.emulateMedia({ colorScheme: 'light' });
      };
      try {
        const page = await context.newPage();
        await page.goto(`${base}/__platformpp/`);
        const frame = await activityFrame(page);
        await page.getByRole('button', { name: 'Authorize' }).waitFor({ timeout: 30_000 });
        await check(page, 'consent');
        await page.getByRole('button', { name: 'Authorize' }).click();
        await expect.poll(() => frame.locator('#status').textContent(), { timeout: 30_000 }).toBe('authorized');
        await check(page, 'activity');
      } finally {
        writeFileSync(
          join(REPORTS, `axe-host-${name}.json`),
          JSON.stringify({ counts: countViolations(findings.flatMap((f) => f.violations)), findings }, null, 2),
        );
        await context.close();
      }
      const problems = findings.flatMap((f) =>
        describeViolations(`host ${f.view} ${name} ${f.scheme}`, blocking(f.violations)),
      );
      expect(problems, problems.join('\n')).toEqual([]);
    },
    180_000,
  );

  it('the check sees the host page itself: a line of text too pale to read, put in it, is a color-contrast violation', async () => {
    const context = await browser.newContext({ viewport: WIDE });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/__platformpp/`);
      await page.locator('pp-platform').waitFor({ timeout: 30_000 });
      await page.evaluate(() => {
        const pale = document.createElement('p');
        pale.id = 'too-pale';
        pale.textContent = 'Hard to read';
        pale.style.cssText = 'color: #c8c8c8; background: #ffffff; margin: 0;';
        document.body.prepend(pale);
      });
      const found = blocking(await runAxe(page));
      expect(found.find((v) => v.rule === 'color-contrast')?.nodes.map((n) => n.target)).toContain('#too-pale');
    } finally {
      await context.close();
    }
  });

  it('the keyboard reaches every control of the host page (the users, the reset, each panel) and the activity, each with a visible focus ring', async () => {
    const context = await browser.newContext({ viewport: WIDE });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/__platformpp/?as=bob`);
      const frame = await activityFrame(page);
      await page.getByRole('button', { name: 'Authorize' }).click({ timeout: 30_000 });
      await expect.poll(() => frame.locator('#status').textContent(), { timeout: 30_000 }).toBe('authorized');
      // Every control the host page has outside the activity, whatever panels it shows.
      const controls = await page.evaluate(() => {
        const found: string[] = [];
        const walk = (root: Document | ShadowRoot) => {
          for (const el of root.querySelectorAll<HTMLElement>('*')) {
            if (el.shadowRoot) walk(el.shadowRoot);
            if (!el.matches('a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'))
              continue;
            // Hidden ones (in a closed <details>, whose content is only content-visibility: hidden) are no stop.
            if (el.closest('pp-activity-frame') || el.matches(':disabled') || !el.checkVisibility()) continue;
            found.push(el.outerHTML.slice(0, 80));
          }
        };
        walk(document);
        return found;
      });
      expect(controls.length).toBeGreaterThan(0);
      await page.locator('body').click({ position: { x: 1, y: 1 } });
      const reached = new Set<string>();
      let activity = false;
      // The inspector's log grows while the page runs (each entry a control of its own), so the
      // walk may meet more stops than were counted: it goes on until every counted one is reached.
      const missing = () => controls.some((c) => !reached.has(c));
      for (let i = 0; i < 400 && (missing() || !activity); i++) {
        await page.keyboard.press('Tab');
        const focused = await focusedElement(page);
        if (focused.inActivity) {
          activity = true;
          continue;
        }
        if (!focused.html) continue;
        reached.add(focused.html);
        expect(await focusRing(page), `no visible focus ring on ${focused.html}`).toBe(true);
      }
      expect(controls.filter((c) => !reached.has(c))).toEqual([]);
      expect(activity).toBe(true);
    } finally {
      await context.close();
    }
  });
});

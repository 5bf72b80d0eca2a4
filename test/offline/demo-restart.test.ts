/**
 * Presence across a browser restart, on the built demo in real Chromium with one profile: the
 * pages of the users who had tabs open are gone with the browser, so once it starts again
 * those users show offline at once, even though their gateway sessions are still stored; the
 * restart grace (about 60 s) is only for pages that live on and resume.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PRESENCE_RESTART_GRACE_MS } from '../../src/platform/core/limits';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium';
import { lounge, memberEntry, ROOT, world } from './demo-page';
import { serveSite, type SiteServer } from './site-server';

/** Opens the profile in `dir` as a browser of its own (closing it is a browser restart). */
function openProfile(dir: string, baseURL: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    headless: true,
    baseURL,
    viewport: { width: 1280, height: 800 },
  });
}

/** Opens the demo as `as` and waits for the lobby's history. */
async function openAs(context: BrowserContext, as: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`/?as=${as}`);
  await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
  return page;
}

describe('presence after a browser restart', () => {
  let site: SiteServer;
  let profile: string;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    site = await serveSite(ROOT, inject('offlineSiteDir'));
    profile = await mkdtemp(join(tmpdir(), 'platformpp-restart-'));
  });

  afterAll(async () => {
    await context?.close();
    await site?.server.close();
    await rm(profile, { recursive: true, force: true });
  });

  it("shows the users whose tabs were open offline at once, when only another user's tab is open again", async () => {
    context = await openProfile(profile, site.baseURL);
    const alice = await openAs(context, 'alice');
    await openAs(context, 'bob');
    const [aliceId, bobId] = (await world(alice)).users.map((u) => u.id);
    await expect.poll(() => memberEntry(alice, bobId).getAttribute('data-status'), { timeout: 10_000 }).toBe('online');

    await context.close();
    context = await openProfile(profile, site.baseURL);
    const chen = await openAs(context, 'chen');
    // Well inside the grace a resuming page would get: nobody waits for it here.
    const inside = { timeout: PRESENCE_RESTART_GRACE_MS / 4 };
    await expect.poll(() => memberEntry(chen, aliceId).getAttribute('data-status'), inside).toBe('offline');
    await expect.poll(() => memberEntry(chen, bobId).getAttribute('data-status'), inside).toBe('offline');
  });
});

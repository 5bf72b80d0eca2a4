import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium';
import { serveSite, type SiteServer } from './site-server';

/** A lobby two users write to, with the bearer tokens the pages use. */
interface World {
  lobbyId: string;
  aliceAuth: string;
  bobAuth: string;
}

/** Opens the profile in `dir` as a browser of its own (closing it is a browser restart). */
function openProfile(dir: string, baseURL: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    headless: true,
    baseURL,
  });
}

/** A page controlled by the service worker, on a platform path so no demo page runs in it. */
async function controlledPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/sandbox/clock');
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await page.goto('/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.goto('/sandbox/clock');
  }
  return page;
}

/** The newest messages of the lobby, read by alice through the page's service worker. */
function readMessages(
  page: Page,
  world: World,
): Promise<{ status: number; servedBy: string | null; messages: Array<{ id: string; content: string }> }> {
  return page.evaluate(async ({ lobbyId, aliceAuth }) => {
    const response = await fetch(`/api/v10/lobbies/${lobbyId}/messages?limit=200`, {
      headers: { Authorization: aliceAuth },
    });
    return { status: response.status, servedBy: response.headers.get('x-served-by'), messages: await response.json() };
  }, world);
}

/** Posts `count` messages at once from `page` as the user of `auth`. */
function postMany(page: Page, world: World, auth: string, label: string, count: number): Promise<number[]> {
  return page.evaluate(
    async ({ lobbyId, auth, label, count }) => {
      const posts = Array.from({ length: count }, (_, i) =>
        fetch(`/api/v10/lobbies/${lobbyId}/messages`, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ content: `${label} ${i}` }),
        }).then((r) => r.status),
      );
      return Promise.all(posts);
    },
    { lobbyId: world.lobbyId, auth, label, count },
  );
}

describe('nothing acknowledged is lost (ARCHITECTURE rule 2): two pages, a reload, a stopped worker, a browser restart', () => {
  let site: SiteServer;
  let profile: string;
  let context: BrowserContext;
  let world: World;
  let acknowledged: Array<{ id: string; content: string }>;

  beforeAll(async () => {
    site = await serveSite(fileURLToPath(new URL('../..', import.meta.url)), inject('offlineSiteDir'));
    profile = await mkdtemp(join(tmpdir(), 'platformpp-profile-'));
    context = await openProfile(profile, site.baseURL);
    const page = await controlledPage(context);
    world = await page.evaluate(async () => {
      const send = async (method: string, path: string, body?: unknown) =>
        (
          await fetch(path, {
            method,
            headers: { 'Content-Type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          })
        ).json();
      const alice = (await send('POST', '/sandbox/users', { username: 'durable_alice' })).user;
      const bob = (await send('POST', '/sandbox/users', { username: 'durable_bob' })).user;
      const app = await send('POST', '/sandbox/applications', { name: 'Durable' });
      const token = async (userId: string) =>
        (
          await send('POST', '/sandbox/tokens', {
            application_id: app.application.id,
            user_id: userId,
            scopes: 'openid sdk.social_layer',
          })
        ).access_token as string;
      const aliceAuth = `Bearer ${await token(alice.id)}`;
      const bobAuth = `Bearer ${await token(bob.id)}`;
      const join = async (auth: string) =>
        (
          await fetch('/api/v10/lobbies', {
            method: 'PUT',
            headers: { Authorization: auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({ secret: 'durable', idle_timeout_seconds: 604800 }),
          })
        ).json();
      const lobby = await join(aliceAuth);
      await join(bobAuth);
      return { lobbyId: lobby.id as string, aliceAuth, bobAuth };
    });
  });

  afterAll(async () => {
    await context?.close();
    await site?.server.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('two pages writing to one lobby at once lose nothing and get increasing ids', async () => {
    const [first, second] = [await controlledPage(context), await controlledPage(context)];
    const [a, b] = await Promise.all([
      postMany(first, world, world.aliceAuth, 'alice', 25),
      postMany(second, world, world.bobAuth, 'bob', 25),
    ]);
    expect([...a, ...b].every((status) => status === 201)).toBe(true);

    const read = await readMessages(first, world);
    expect(read).toMatchObject({ status: 200, servedBy: 'platformpp-sw' });
    expect(read.messages).toHaveLength(50);
    const contents = new Set(read.messages.map((m) => m.content));
    for (let i = 0; i < 25; i++) expect(contents.has(`alice ${i}`) && contents.has(`bob ${i}`)).toBe(true);
    const ids = read.messages.map((m) => BigInt(m.id));
    // Newest first: strictly decreasing ids, so every id is distinct and ids increase with time.
    for (let i = 1; i < ids.length; i++) expect(ids[i] < ids[i - 1]).toBe(true);
    acknowledged = read.messages;
  });

  it('a page reload finds every acknowledged message', async () => {
    const page = context.pages().at(-1)!;
    await page.reload();
    expect((await readMessages(page, world)).messages).toEqual(acknowledged);
  });

  it('a service worker stopped through the DevTools protocol answers the same afterwards', async () => {
    const page = context.pages().at(-1)!;
    const cdp = await context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.detach();
    expect((await readMessages(page, world)).messages).toEqual(acknowledged);
  });

  it('a browser restart on the same profile finds every acknowledged message', async () => {
    await context.close();
    context = await openProfile(profile, site.baseURL);
    const page = await controlledPage(context);
    const read = await readMessages(page, world);
    expect(read.servedBy).toBe('platformpp-sw');
    expect(read.messages).toEqual(acknowledged);
  });
});

/**
 * CONTRACT §7, pages joining a server: the platform server started through Miniflare in this
 * test, and the built demo opened with `?server=<url>` in two browser contexts of Chromium (two
 * "machines": no storage, service worker or shared worker in common). Both find the one world
 * the first seeded (recorded in the sandbox), and see each other's lobby messages through the
 * server: its HTTP API through each page's service worker, its gateway over real WebSockets. A
 * server that cannot be reached is an error naming it, never "ready".
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../server/start.js';
import { lounge, memberEntry, navLink, ROOT } from './demo-page';
import { serverHosts } from './server-hosts';

const WORKER_DIR = 'test-results/server-machines-dist';

/** What the page's own fetch gets for `path` (through its service worker), with who answered. */
function pageFetch(page: Page, path: string, init: RequestInit = {}) {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, init);
      return { status: response.status, servedBy: response.headers.get('X-Served-By'), body: await response.text() };
    },
    { path, init },
  );
}

describe('pages joining a server (CONTRACT §7): two machines, one sandbox', () => {
  const hosts = serverHosts(WORKER_DIR);
  const contexts: BrowserContext[] = [];
  const uncaught: string[] = [];
  /** The WebSockets each page opened (frames' included), by the page's query. */
  const sockets = new Map<string, string[]>();

  /** A new "machine" (a browser context of its own) with the demo open at `query`. */
  const machine = async (query: string) => {
    const context = await hosts.browser.newContext({
      baseURL: hosts.site.baseURL,
      viewport: { width: 1280, height: 800 },
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => uncaught.push(`${query}: ${error.message}`));
    sockets.set(query, []);
    page.on('websocket', (socket) => sockets.get(query)!.push(socket.url()));
    await page.goto(`/${query}`);
    return page;
  };

  it('alice and bob on two machines share the world and see each other’s lobby messages, live', async () => {
    const joined = `?server=${encodeURIComponent(hosts.server.url)}`;
    const alice = await machine(`${joined}&as=alice`);
    await lounge(alice).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 60_000 });
    expect(await alice.locator('html').getAttribute('data-status')).toBe('ready');
    const bob = await machine(`${joined}&as=bob`);
    await lounge(bob).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 60_000 });

    // One world: the second machine found the first one's record in the sandbox and seeded nothing.
    const usernames = await pageFetch(bob, '/sandbox/fixture-sets/platformpp-demo-world');
    expect(usernames.servedBy).toBe('platformpp-server');
    const world = JSON.parse(usernames.body).fixture_set.value;
    expect(world.users.map((u: { username: string }) => u.username)).toEqual(['alice', 'bob', 'chen']);

    await alice.getByLabel('Message Café Lounge').fill('Hello from machine A');
    await alice.keyboard.press('Enter');
    await lounge(bob).getByText('Hello from machine A').waitFor({ timeout: 15_000 });
    await bob.getByLabel('Message Café Lounge').fill('Hello back from machine B');
    await bob.keyboard.press('Enter');
    await lounge(alice).getByText('Hello back from machine B').waitFor({ timeout: 15_000 });

    // Stored on the server, not in either browser: a program reads them over the network.
    const token = world.users[0].token as string;
    const messages = (await (
      await fetch(`${hosts.server.url}/api/v10/lobbies/${world.lobby.id}/messages`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { content: string }[];
    expect(messages.map((m) => m.content)).toEqual(
      expect.arrayContaining(['Hello from machine A', 'Hello back from machine B']),
    );
    // Each page's gateway was a real WebSocket to the server's gateway URL.
    const gateway = `${hosts.server.url.replace('http', 'ws')}/gateway?v=10&encoding=json`;
    for (const query of [`${joined}&as=alice`, `${joined}&as=bob`]) expect(sockets.get(query)).toContain(gateway);
    expect(uncaught).toEqual([]);
  });

  it('an activity in the page runs on the server too: its frame’s requests and gateway, and the presence it sets reaches the other machine', async () => {
    const joined = `?server=${encodeURIComponent(hosts.server.url)}`;
    const [alice, bob] = contexts.map((c) => c.pages()[0]);
    const world = JSON.parse((await pageFetch(alice, '/sandbox/fixture-sets/platformpp-demo-world')).body).fixture_set
      .value;
    await navLink(alice, 'Game Room').click();
    await alice.getByRole('button', { name: 'Start Tic-Tac-Toe' }).click();
    await alice.getByRole('dialog').getByRole('button', { name: 'Authorize' }).click();
    const game = alice.frameLocator('pp-activity-frame iframe');
    await game.getByRole('button', { name: 'centre: empty' }).waitFor({ timeout: 30_000 });
    // SET_ACTIVITY went to the server, which dispatched the presence to the other machine.
    await memberEntry(bob, world.users[0].id).getByText('Playing Tic-Tac-Toe').waitFor({ timeout: 15_000 });
    // The frame (the activity's page) opened its own gateway socket on the server.
    const gateway = `${hosts.server.url.replace('http', 'ws')}/gateway?v=10&encoding=json`;
    expect(sockets.get(`${joined}&as=alice`)!.filter((url) => url === gateway).length).toBeGreaterThanOrEqual(2);
    expect(uncaught).toEqual([]);
  });

  it('the service worker forwards the platform paths, /.proxy ones and the real platform origins of that page to the server', async () => {
    const page = await machine(`?server=${encodeURIComponent(hosts.server.url)}&as=chen`);
    await page.locator('html[data-status="ready"]').waitFor({ timeout: 60_000 });
    for (const path of ['/api/v10/gateway', '/.proxy/api/v10/gateway', 'https://discord.com/api/v10/gateway']) {
      const answer = await pageFetch(page, path);
      expect([path, answer.status, answer.servedBy]).toEqual([path, 200, 'platformpp-server']);
      expect(JSON.parse(answer.body).url).toBe(`${hosts.server.url.replace('http', 'ws')}/gateway`);
    }
    const avatar = await page.evaluate(async () => {
      const response = await fetch('https://cdn.discordapp.com/embed/avatars/0.png?size=64');
      return {
        status: response.status,
        type: response.headers.get('Content-Type'),
        servedBy: response.headers.get('X-Served-By'),
      };
    });
    expect(avatar).toEqual({ status: 200, type: 'image/png', servedBy: 'platformpp-server' });
  });

  it('a page of the same machine without ?server= keeps its own sandbox in the browser (per page)', async () => {
    const [context] = contexts;
    const local = await context.newPage();
    await local.goto('/?as=alice');
    await local.locator('html[data-status="ready"]').waitFor({ timeout: 60_000 });
    const answer = await pageFetch(local, '/sandbox/clock');
    expect([answer.status, answer.servedBy]).toEqual([200, 'platformpp-sw']);
    const remote = context.pages()[0];
    expect((await pageFetch(remote, '/sandbox/clock')).servedBy).toBe('platformpp-server');
    await local.close();
  });

  it('a server that cannot be reached is an error state naming it, never "ready"', async () => {
    const stopped = await startServer({ port: 0, workerPath: join(ROOT, WORKER_DIR, 'worker.js') });
    await stopped.stop();
    const page = await machine(`?server=${encodeURIComponent(stopped.url)}`);
    await page.locator('html[data-status="error"]').waitFor({ timeout: 60_000 });
    const error = await page.evaluate(() => document.querySelector('pp-platform')!.error);
    expect(error).toContain(stopped.url);
    expect(error).toContain('could not be reached');
  });
});

/**
 * Every device in one activity: the platform server through Miniflare, and the built demo opened
 * with `?server=<url>` in two browser contexts of Chromium (two "machines"). Alice and Bob each
 * start the demo's activity in the Game Room: their frames are in one instance of the server
 * (one instance_id), each activity sees both participants, and when Bob's page goes away Alice's
 * sees him leave; the backend reads the instance with the bot token. A request an activity sends
 * through its URL mappings reaches a backend on this machine (`http://127.0.0.1:<port>`) from a
 * page on the server as from a page offline.
 *
 * Prints the figures: the time from the second device's launch to both activities seeing two
 * participants, and a mapped request's round trip through the server against the same offline.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { navLink, type World, world } from './demo-page';
import { serverHosts } from './server-hosts';

const WORKER_DIR = 'test-results/server-devices-dist';

/** The text of the activity's "who is here" line. */
const hereLine = (game: FrameLocator) => game.locator('#here');

/** Starts the demo's activity in the Game Room as the page's user, through the consent dialog. */
async function launch(page: Page): Promise<FrameLocator> {
  await navLink(page, 'Game Room').click();
  await page.getByRole('button', { name: /(Start|Join) Tic-Tac-Toe/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Authorize' }).click();
  const game = page.frameLocator('pp-activity-frame iframe');
  await game.getByRole('button', { name: 'centre: empty' }).waitFor({ timeout: 30_000 });
  return game;
}

/** The instance the page's frame is in, as `<pp-activity-frame>` holds it. */
function frameInstance(page: Page) {
  return page
    .locator('pp-activity-frame')
    .evaluate(
      (frame) =>
        (frame as unknown as { instance: { instance_id: string; participants: { id: string }[] } | null }).instance,
    );
}

/** The demo's world as the page recorded it: in the server's sandbox (a fixture set) when it joined one. */
async function worldOf(page: Page): Promise<World> {
  const local = await world(page);
  if (local) return local;
  return page.evaluate(
    async () => (await (await fetch('/sandbox/fixture-sets/platformpp-demo-world')).json()).fixture_set.value,
  );
}

/** Median milliseconds of `n` sequential fetches of `path`, timed inside the page. */
function medianFetchMs(page: Page, path: string, n: number) {
  return page.evaluate(
    async ({ path, n }) => {
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const start = performance.now();
        const response = await fetch(`${path}?i=${i}`);
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        await response.text();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      return times[Math.floor(n / 2)];
    },
    { path, n },
  );
}

describe('every device in one activity (a platform server, two machines)', () => {
  const hosts = serverHosts(WORKER_DIR);
  const contexts: BrowserContext[] = [];
  const uncaught: string[] = [];
  let backend: Server;
  const backendHits: string[] = [];

  afterAll(async () => {
    await new Promise((resolve) => backend?.close(resolve));
  });

  const machine = async (query: string) => {
    const context = await hosts.browser.newContext({
      baseURL: hosts.site.baseURL,
      viewport: { width: 1280, height: 800 },
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => uncaught.push(`${query}: ${error.message}`));
    await page.goto(`/${query}`);
    await page.locator('html[data-status="ready"]').waitFor({ timeout: 60_000 });
    return page;
  };

  it('alice and bob on two machines launch one activity: one instance_id, both see two participants, and a leave', async () => {
    const joined = `?server=${encodeURIComponent(hosts.server.url)}`;
    const alice = await machine(`${joined}&as=alice`);
    const bob = await machine(`${joined}&as=bob`);
    const aliceGame = await launch(alice);
    await expect.poll(() => hereLine(aliceGame).textContent(), { timeout: 15_000 }).toMatch(/^Here now: [^,]+$/);

    const started = Date.now();
    const bobGame = await launch(bob);
    await Promise.all(
      [aliceGame, bobGame].map((game) =>
        expect
          .poll(() => hereLine(game).textContent(), { timeout: 30_000, interval: 50 })
          .toMatch(/^Here now: .+, .+$/),
      ),
    );
    const bothSeeTwoMs = Date.now() - started;
    console.log(
      `[figures] second device's launch (click to both activities seeing two participants): ${bothSeeTwoMs} ms`,
    );

    const [a, b] = [await frameInstance(alice), await frameInstance(bob)];
    expect(b!.instance_id).toBe(a!.instance_id);
    const w = await worldOf(alice);
    const ids = w.users.map((u) => u.id);
    expect(b!.participants.map((p) => p.id)).toEqual([ids[0], ids[1]]);

    // The activity's backend checks the instance with the bot token, on the server.
    const read = await fetch(
      `${hosts.server.url}/api/v10/applications/${w.game.application_id}/activity-instances/${a!.instance_id}`,
      { headers: { Authorization: `Bot ${w.game.bot_token}` } },
    );
    expect(((await read.json()) as { users: string[] }).users).toEqual([ids[0], ids[1]]);

    // Bob's machine goes away: Alice's activity sees him leave.
    await bob.close();
    await expect.poll(() => hereLine(aliceGame).textContent(), { timeout: 15_000 }).toMatch(/^Here now: [^,]+$/);
    expect(uncaught).toEqual([]);
  });

  it("a request through the activity's URL mappings reaches a backend on this machine from a page on the server, as offline", async () => {
    backend = createServer((request, response) => {
      backendHits.push(request.url ?? '');
      response.writeHead(200, {
        'Content-Type': 'application/json',
        'Access-Control-Allow-Origin': '*',
        'Cross-Origin-Resource-Policy': 'cross-origin',
      });
      response.end(JSON.stringify({ pong: true }));
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    const alice = contexts[0].pages()[0];
    const w = await worldOf(alice);
    const mappings = { url_mappings: [{ prefix: '/backend', target }] };
    const set = await fetch(`${hosts.server.url}/sandbox/applications/${w.game.application_id}/url-mappings`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(mappings),
    });
    expect(set.status).toBe(200);

    // From the activity's own frame, on the server.
    const frame = alice.frames().find((f) => f.url().includes('frame_id='))!;
    const answer = await frame.evaluate(async () => {
      const response = await fetch('/.proxy/backend/ping');
      return { status: response.status, body: await response.text() };
    });
    expect(answer).toEqual({ status: 200, body: JSON.stringify({ pong: true }) });
    expect(backendHits).toContain('/ping');
    const onServer = await medianFetchMs(frame as unknown as Page, '/.proxy/backend/ping', 40);

    // The same request from a page of the same machine offline (its own sandbox in the browser).
    const local = await contexts[0].newPage();
    await local.goto('/?as=alice');
    await local.locator('html[data-status="ready"]').waitFor({ timeout: 60_000 });
    // The page seeds its own world in this browser once ready.
    await expect.poll(() => world(local), { timeout: 30_000 }).not.toBeNull();
    const localWorld = await world(local);
    const put = await local.evaluate(
      async ({ id, mappings }) =>
        (
          await fetch(`/sandbox/applications/${id}/url-mappings`, {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(mappings),
          })
        ).status,
      { id: localWorld.game.application_id, mappings },
    );
    expect(put).toBe(200);
    const offline = await medianFetchMs(local, '/.proxy/backend/ping', 40);
    console.log(
      `[figures] mapped request round trip, median of 40: through the server ${onServer.toFixed(1)} ms, offline ${offline.toFixed(1)} ms`,
    );
    expect(uncaught).toEqual([]);
  });
});

/**
 * A phone on the LAN without a service worker (issue 29, item 4): the packed package in a new
 * Vite project with `platformpp({ server })`. Chromium maps `phone.test` to 127.0.0.1, so
 * `http://phone.test:<port>/__platformpp/` is an origin that is not a secure context (no service
 * worker, no `crypto.subtle`, `crypto.randomUUID` or Web Locks) over loopback traffic. With a
 * mobile viewport and touch it runs the activity (the public embedded-app SDK, unchanged) on the
 * platform server through the dev server, in one instance with a desktop page on localhost: both
 * see two participants, and a move made on one reaches the other through the activity's URL
 * mapping to its game backend on the laptop. The page says in words what works there and what
 * does not, and never carries the client secret. Without a shared worker the RPC runs in the page.
 *
 * Prints the figure: the time from the phone's launch to both activities seeing two participants.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start.js';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium';
import { createProject, freePort, packPackage, startVite, type ViteProcess, writeFiles } from './packed-project';

const root = fileURLToPath(new URL('../..', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'platformpp-package-phone-'));
const projectDir = join(workDir, 'my-activity');
const CLIENT_ID = '1234567890123456789';
const CLIENT_SECRET = 'phone-starter-secret-0123456789';

/**
 * The activity: the public SDK, its backend's exchange at /api/token, the instance's participants,
 * and moves kept by its game backend, reached through the URL mapping `/game`.
 */
const MAIN_JS = `import { DiscordSDK } from '@discord/embedded-app-sdk';

const discordSdk = new DiscordSDK(import.meta.env.VITE_CLIENT_ID);
const show = (id, text) => (document.getElementById(id).textContent = text);
const names = (participants) => participants.map((p) => p.username).sort().join(',');
let me = '';

async function setupDiscordSdk() {
  await discordSdk.ready();
  const { code } = await discordSdk.commands.authorize({
    client_id: import.meta.env.VITE_CLIENT_ID,
    response_type: 'code',
    state: '',
    prompt: 'none',
    scope: ['identify', 'guilds'],
  });
  const response = await fetch('/.proxy/api/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  const { access_token } = await response.json();
  const auth = await discordSdk.commands.authenticate({ access_token });
  me = auth.user.username;
  show('user', me);
  const guilds = await fetch('/.proxy/api/v10/users/@me/guilds', {
    headers: { Authorization: 'Bearer ' + access_token },
  });
  show('guilds', (await guilds.json()).map((g) => g.name).join(', '));
  show('served-by', guilds.headers.get('X-Served-By'));
  discordSdk.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', ({ participants }) => show('participants', names(participants)));
  const { participants } = await discordSdk.commands.getInstanceConnectedParticipants();
  show('participants', names(participants));
  show('status', 'authenticated');
  setInterval(readMoves, 150);
}

async function readMoves() {
  // Before the game's URL mapping is set, the path is the dev server's page.
  const moves = await fetch('/.proxy/game/moves?instance=' + discordSdk.instanceId).then((r) => r.json()).catch(() => []);
  show('moves', moves.join(','));
}

document.getElementById('move').addEventListener('click', async () => {
  await fetch('/.proxy/game/moves?instance=' + discordSdk.instanceId, { method: 'POST', body: me });
  await readMoves();
});

setupDiscordSdk().catch((error) => show('error', error?.message ?? JSON.stringify(error)));
`;

const PROJECT_FILES = (backendPort: number, server: string): Record<string, string> => ({
  '.env': `VITE_CLIENT_ID=${CLIENT_ID}\nCLIENT_SECRET=${CLIENT_SECRET}\n`,
  'vite.config.js': `import { defineConfig } from 'vite';
import { platformpp } from 'platformpp-web/vite';

export default defineConfig({
  plugins: [platformpp({ server: ${JSON.stringify(server)} })],
  server: {
    allowedHosts: ['phone.test'],
    proxy: { '/api': { target: 'http://127.0.0.1:${backendPort}', changeOrigin: true } },
  },
});
`,
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><meta name="viewport" content="width=device-width" /><title>My Activity</title></head>
  <body>
    <button id="move" type="button">Move</button>
    <dl>
      <dt>status</dt><dd id="status">loading</dd>
      <dt>user</dt><dd id="user"></dd>
      <dt>guilds</dt><dd id="guilds"></dd>
      <dt>served by</dt><dd id="served-by"></dd>
      <dt>participants</dt><dd id="participants"></dd>
      <dt>moves</dt><dd id="moves"></dd>
      <dt>error</dt><dd id="error"></dd>
    </dl>
    <script type="module" src="/src/main.js"></script>
  </body>
</html>
`,
  'src/main.js': MAIN_JS,
});

/** The activity's token backend: it exchanges the code with the client secret on the server. */
function startTokenBackend(serverUrl: () => string): Promise<Server> {
  const backend = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const { code } = JSON.parse(body) as { code: string };
    const response = await fetch(`${serverUrl()}/api/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_type: 'authorization_code',
        code,
      }),
    });
    const { access_token } = (await response.json()) as { access_token: string };
    res.writeHead(response.status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ access_token }));
  });
  return new Promise((done) => backend.listen(0, '127.0.0.1', () => done(backend)));
}

/** The activity's game backend on the laptop (`http://127.0.0.1:<port>`): the moves of each instance. */
function startGameBackend(hits: string[]): Promise<Server> {
  const moves = new Map<string, string[]>();
  const backend = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, POST' };
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    const instance = url.searchParams.get('instance') ?? '';
    const list = moves.get(instance) ?? [];
    moves.set(instance, list);
    if (req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      list.push(body);
      hits.push(`${req.headers.host} POST ${body}`);
    }
    res.writeHead(200, { ...cors, 'Content-Type': 'application/json' }).end(JSON.stringify(list));
  });
  return new Promise((done) => backend.listen(0, '127.0.0.1', () => done(backend)));
}

const activityFrame = (page: Page) =>
  expect
    .poll(() => page.frames().find((f) => f.url().includes('frame_id=')), { timeout: 60_000 })
    .toBeTruthy()
    .then(() => page.frames().find((f) => f.url().includes('frame_id='))!);
const text = (frame: Frame, id: string) => frame.locator(`#${id}`).textContent();

describe('a phone on the LAN without a service worker plays with a laptop through the platform server', () => {
  let desktop: Browser;
  let lan: Browser;
  let server: RunningServer;
  let tokenBackend: Server;
  let gameBackend: Server;
  let vite: ViteProcess;
  let port: number;
  const gameHits: string[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const tarball = await packPackage(root, workDir, { server: true });
    tokenBackend = await startTokenBackend(() => server.url);
    gameBackend = await startGameBackend(gameHits);
    // The project files need the server's URL, the server needs the packed Worker: install first.
    await createProject(
      root,
      projectDir,
      tarball,
      PROJECT_FILES((tokenBackend.address() as AddressInfo).port, 'http://127.0.0.1:1'),
    );
    server = await startServer({
      port: 0,
      workerPath: join(projectDir, 'node_modules/platformpp-web/dist/server/worker.js'),
    });
    writeFiles(projectDir, PROJECT_FILES((tokenBackend.address() as AddressInfo).port, server.url));
    port = await freePort();
    vite = await startVite(projectDir, [], port);
    desktop = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
    lan = await chromium.launch({
      executablePath: chromiumPath(),
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP phone.test 127.0.0.1'],
      headless: true,
    });
  }, 240_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await desktop?.close();
    await lan?.close();
    await vite?.stop();
    await server?.stop();
    tokenBackend?.close();
    gameBackend?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  /**
   * Opens the sandbox page at `url` in a new context of `browser` (`launched` is told when the
   * navigation starts), and waits for its activity frame.
   */
  async function open(browser: Browser, url: string, device: 'desktop' | 'phone', launched = () => {}) {
    const context = await browser.newContext(
      device === 'phone'
        ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
        : { viewport: { width: 1280, height: 800 } },
    );
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    launched();
    await page.goto(url);
    return { page, errors, frame: await activityFrame(page) };
  }

  it("the phone on http://phone.test runs the activity in the laptop's instance: two participants on both, moves both ways", async () => {
    const laptop = await open(desktop, `http://localhost:${port}/__platformpp/`, 'desktop');
    await laptop.page.getByRole('button', { name: 'Authorize' }).click({ timeout: 30_000 });
    await expect.poll(() => text(laptop.frame, 'status'), { timeout: 30_000 }).toBe('authenticated');
    expect(await text(laptop.frame, 'participants')).toBe('alice');
    const mappings = await fetch(`${server.url}/sandbox/applications/${CLIENT_ID}/url-mappings`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        url_mappings: [{ prefix: '/game', target: `http://127.0.0.1:${(gameBackend.address() as AddressInfo).port}` }],
      }),
    });
    expect(mappings.status).toBe(200);

    // The phone: a mobile viewport with touch, on an origin that is not a secure context.
    let started = 0;
    const phone = await open(lan, `http://phone.test:${port}/__platformpp/?as=bob`, 'phone', () => {
      started = Date.now();
    });
    const framed = Date.now();
    const authorize = phone.page.getByRole('button', { name: 'Authorize' });
    await authorize.waitFor({ timeout: 30_000 });
    const asked = Date.now();
    await authorize.tap();
    const tapped = Date.now();
    await Promise.all(
      [laptop.frame, phone.frame].map((frame) =>
        expect.poll(() => text(frame, 'participants'), { timeout: 30_000, interval: 50 }).toBe('alice,bob'),
      ),
    );
    const bothSeeTwoMs = Date.now() - started;
    console.log(
      `[figures] the phone's launch (its navigation to http://phone.test, the consent tapped) to both activities seeing two participants: ${bothSeeTwoMs} ms ` +
        `(activity frame there ${framed - started} ms, consent dialog ${asked - started} ms, tap to two participants on both ${started + bothSeeTwoMs - tapped} ms)`,
    );
    expect(
      await phone.page.evaluate(() => [
        isSecureContext,
        'serviceWorker' in navigator,
        typeof crypto.subtle,
        typeof crypto.randomUUID,
        typeof navigator.locks,
      ]),
    ).toEqual([false, false, 'undefined', 'undefined', 'undefined']);
    expect([await text(phone.frame, 'user'), await text(phone.frame, 'error')]).toEqual(['bob', '']);
    // The platform's answers came from the server, through the dev server.
    expect([await text(phone.frame, 'guilds'), await text(phone.frame, 'served-by')]).toEqual([
      'platformpp Sandbox',
      'platformpp-server',
    ]);
    const instanceOf = (page: Page) =>
      page.evaluate(() => {
        const { frame, platform } = (globalThis as any).platformppSandbox;
        return { id: frame.instance.instance_id as string, withoutServiceWorker: platform.withoutServiceWorker };
      });
    const [a, b] = [await instanceOf(laptop.page), await instanceOf(phone.page)];
    expect(b).toEqual({ id: a.id, withoutServiceWorker: true });
    expect(a.withoutServiceWorker).toBe(false);

    // The page says what works there and what does not, and carries no client secret.
    const notice = phone.page.locator('#platformpp-insecure-origin');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/not a secure context.*no service worker.*offline.*adb reverse/s);
    expect(await phone.page.content()).not.toContain(CLIENT_SECRET);
    await phone.page.screenshot({ path: join(root, 'test-results/screenshots/host-page-phone-insecure-origin.png') });

    // A move on the phone reaches the laptop, and one on the laptop the phone.
    await phone.frame.getByRole('button', { name: 'Move' }).tap();
    await expect.poll(() => text(laptop.frame, 'moves'), { timeout: 15_000 }).toBe('bob');
    await laptop.frame.getByRole('button', { name: 'Move' }).click();
    await expect.poll(() => text(phone.frame, 'moves'), { timeout: 15_000 }).toBe('bob,alice');
    // The phone's mapped request was sent by the dev server on the laptop, as the laptop's own.
    expect(gameHits).toEqual([expect.stringMatching(/ POST bob$/), expect.stringMatching(/ POST alice$/)]);
    expect([...laptop.errors, ...phone.errors]).toEqual([]);
  }, 180_000);

  it('without a shared worker the RPC runs in the page: a phone that has none joins the same instance', async () => {
    const context = await lan.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    contexts.push(context);
    await context.addInitScript(() => {
      // An older phone or an Android WebView: no SharedWorker.
      delete (globalThis as { SharedWorker?: unknown }).SharedWorker;
    });
    const page = await context.newPage();
    await page.goto(`http://phone.test:${port}/__platformpp/?as=chen`);
    const frame = await activityFrame(page);
    await page.getByRole('button', { name: 'Authorize' }).tap({ timeout: 30_000 });
    await expect.poll(() => text(frame, 'participants'), { timeout: 30_000 }).toBe('alice,bob,chen');
    expect(
      await page.evaluate(() => [typeof SharedWorker, (globalThis as any).platformppSandbox.platform.hub]),
    ).toEqual(['undefined', null]);
    await expect.poll(() => text(frame, 'moves'), { timeout: 15_000 }).toBe('bob,alice');
  }, 120_000);
});

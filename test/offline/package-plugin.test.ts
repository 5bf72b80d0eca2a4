/**
 * CONTRACT §6 end to end, as a new user meets it: the package packed and installed offline
 * into a fresh Vite project whose `vite.config.js` adds `platformpp()`, its `.env` naming the
 * application, its small backend exchanging codes server to server, and its activity written
 * with the platform's public embedded-app SDK (unchanged, like the platform's starter). Its
 * `vite` dev server, driven in Chromium: ready, authorize (clicking "Authorize"), the code
 * exchanged by the backend, authenticate, the platform's API called at the real platform's
 * origin, a CDN avatar, two users in one instance, a hot reload that keeps working; then
 * `vite build` + `vite preview` serve the same sandbox.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, freePort, packPackage, startVite, writeFiles, type ViteProcess } from './packed-project';
import { launchChromium } from './site-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'platformpp-package-'));
const projectDir = join(workDir, 'my-activity');
const CLIENT_ID = '1234567890123456789';
const CLIENT_SECRET = 'starter-secret-0123456789';

/** The activity, as the platform's starter writes it: the public SDK, its own backend at /api/token. */
const MAIN_JS = `import { DiscordSDK } from '@discord/embedded-app-sdk';
import { label } from './label.js';

const discordSdk = new DiscordSDK(import.meta.env.VITE_CLIENT_ID);
const show = (id, text) => (document.getElementById(id).textContent = text);
const names = (participants) => participants.map((p) => p.username).sort().join(',');
show('label', label);
show('instance', discordSdk.instanceId);

async function setupDiscordSdk() {
  await discordSdk.ready();
  show('status', 'ready');
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
  show('user', auth.user.username);
  const guilds = await fetch('https://discord.com/api/v10/users/@me/guilds', {
    headers: { Authorization: 'Bearer ' + access_token },
  }).then((r) => r.json());
  show('guilds', guilds.map((g) => g.name).join(', '));
  const avatar = new Image();
  avatar.src = 'https://cdn.discordapp.com/embed/avatars/' + ((BigInt(auth.user.id) >> 22n) % 6n) + '.png?size=64';
  await avatar.decode();
  show('avatar', String(avatar.naturalWidth));
  discordSdk.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', ({ participants }) => show('participants', names(participants)));
  const { participants } = await discordSdk.commands.getInstanceConnectedParticipants();
  show('participants', names(participants));
  show('status', 'authenticated');
}

setupDiscordSdk().catch((error) => show('error', error?.message ?? JSON.stringify(error)));
`;

const PROJECT_FILES = (backendPort: number): Record<string, string> => ({
  '.env': `VITE_CLIENT_ID=${CLIENT_ID}\nCLIENT_SECRET=${CLIENT_SECRET}\n`,
  'vite.config.js': `import { defineConfig } from 'vite';
import { platformpp } from 'platformpp-web/vite';

export default defineConfig({
  plugins: [platformpp()],
  server: { proxy: { '/api': { target: 'http://127.0.0.1:${backendPort}', changeOrigin: true } } },
  preview: { proxy: { '/api': { target: 'http://127.0.0.1:${backendPort}', changeOrigin: true } } },
});
`,
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>My Activity</title></head>
  <body>
    <dl>
      <dt>label</dt><dd id="label"></dd>
      <dt>status</dt><dd id="status">loading</dd>
      <dt>user</dt><dd id="user"></dd>
      <dt>guilds</dt><dd id="guilds"></dd>
      <dt>avatar</dt><dd id="avatar"></dd>
      <dt>participants</dt><dd id="participants"></dd>
      <dt>instance</dt><dd id="instance"></dd>
      <dt>error</dt><dd id="error"></dd>
    </dl>
    <script type="module" src="/src/main.js"></script>
  </body>
</html>
`,
  'src/main.js': MAIN_JS,
  // A page of the project's own that embeds the platform with the package's elements.
  'embed.html': `<!doctype html>
<script type="module">import 'platformpp-web/components';</script>
<pp-platform service-worker-url="/__platformpp/sw.js"></pp-platform>
`,
  'src/label.js': `export const label = 'first version';\n`,
});

/**
 * The activity's backend, as the starter's: POST /api/token {code} exchanges the code with the
 * client secret, server to server, at the platform URL the plugin printed for backends.
 */
function startBackend(platformApi: () => string): Promise<Server> {
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/api/token') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    for await (const chunk of req) body += chunk;
    const { code } = JSON.parse(body) as { code: string };
    const response = await fetch(`${platformApi()}/oauth2/token`, {
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
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** The activity's frame inside a sandbox page. */
async function activityFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().find((f) => f.url().includes('frame_id=')), { timeout: 30_000 }).toBeTruthy();
  return page.frames().find((f) => f.url().includes('frame_id='))!;
}

const text = (frame: Frame, id: string) => frame.locator(`#${id}`).textContent();

describe('platformpp-web packed, installed into a new Vite project, with platformpp() (CONTRACT §6)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let backend: Server;
  let vite: ViteProcess;
  let base: string;
  /** Where the backend reaches the platform: the URL the running server printed for backends. */
  let sandboxApi = '';
  const pageErrors: string[] = [];
  const apiOf = (server: ViteProcess) =>
    /platformpp API for your backend: (\S+)/.exec(server.output())![1].replace(/\/$/, '');

  beforeAll(async () => {
    const tarball = await packPackage(root, workDir);
    backend = await startBackend(() => sandboxApi);
    await createProject(root, projectDir, tarball, PROJECT_FILES((backend.address() as AddressInfo).port));
    const port = await freePort();
    vite = await startVite(projectDir, [], port);
    base = `http://localhost:${port}`;
    sandboxApi = apiOf(vite);
    browser = await launchChromium();
    context = await browser.newContext();
    context.on('page', (page) => page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`)));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await vite?.stop();
    backend?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('the dev server prints the sandbox, and serves it at /__platformpp/ beside the activity at /', async () => {
    expect(vite.output()).toMatch(/platformpp: http:\/\/127\.0\.0\.1:\d+\/__platformpp\/ {2}\(as Bob: .*\?as=bob\)/);
    const activity = await fetch(`${base}/`);
    expect(await activity.text()).toContain('/src/main.js');
  });

  it('alice: ready, "Authorize" clicked, the code exchanged by the backend, authenticate, the API at https://discord.com/api, a CDN avatar', async () => {
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`alice: ${error.message}`));
    await page.goto(`${base}/__platformpp/`);
    const frame = await activityFrame(page);
    await page.getByRole('button', { name: 'Authorize' }).click({ timeout: 30_000 });
    await expect.poll(() => text(frame, 'status'), { timeout: 30_000 }).toBe('authenticated');
    expect(await text(frame, 'error')).toBe('');
    expect(await text(frame, 'user')).toBe('alice');
    expect(await text(frame, 'guilds')).toBe('platformpp Sandbox');
    expect(await text(frame, 'avatar')).toBe('64');
    expect(await text(frame, 'participants')).toBe('alice');
    expect(await page.locator('pp-activity-frame').getAttribute('rpc-status')).toBe('ready');
  });

  it('bob in a second tab (?as=bob) joins the same instance: each activity sees alice and bob', async () => {
    const [alice] = context.pages();
    const bob = await context.newPage();
    await bob.goto(`${base}/__platformpp/?as=bob`);
    const bobFrame = await activityFrame(bob);
    await bob.getByRole('button', { name: 'Authorize' }).click({ timeout: 30_000 });
    await expect.poll(() => text(bobFrame, 'status'), { timeout: 30_000 }).toBe('authenticated');
    expect(await text(bobFrame, 'user')).toBe('bob');
    expect(await text(bobFrame, 'participants')).toBe('alice,bob');
    const aliceFrame = await activityFrame(alice);
    expect(await text(bobFrame, 'instance')).toBe(await text(aliceFrame, 'instance'));
    await expect.poll(() => text(aliceFrame, 'participants'), { timeout: 15_000 }).toBe('alice,bob');
  });

  it('the cockpit: ?as=alice,bob runs both players in one tab, and its RPC inspector lists their session', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/__platformpp/?as=alice,bob`);
    await expect
      .poll(() => page.frames().filter((f) => f.url().includes('frame_id=')).length, { timeout: 30_000 })
      .toBe(2);
    // Both authorized in the tests before: the activities authenticate without a dialog.
    for (const frame of page.frames().filter((f) => f.url().includes('frame_id=')))
      await expect.poll(() => text(frame, 'status'), { timeout: 30_000 }).toBe('authenticated');
    const inspector = page.getByRole('region', { name: 'RPC inspector' });
    await expect.poll(() => inspector.getByText('HANDSHAKE', { exact: true }).count(), { timeout: 15_000 }).toBe(2);
    expect(await inspector.getByText('AUTHENTICATE', { exact: true }).count()).toBe(2);
    expect(await page.getByRole('region', { name: "What the platform's clients do" }).isVisible()).toBe(true);
    await page.close();
  });

  it('a hot reload (an edited module) reloads both activities, which handshake again and keep working', async () => {
    const [alice, bob] = context.pages();
    writeFiles(projectDir, { 'src/label.js': `export const label = 'second version';\n` });
    for (const page of [alice, bob]) {
      const frame = await activityFrame(page);
      await expect.poll(() => text(frame, 'label').catch(() => ''), { timeout: 30_000 }).toBe('second version');
      // Authorized before: `prompt: 'none'` asks nobody again.
      await expect.poll(() => text(frame, 'status'), { timeout: 30_000 }).toBe('authenticated');
      expect(await text(frame, 'participants')).toBe('alice,bob');
    }
    expect(pageErrors).toEqual([]);
  });

  it('a page of the project that imports platformpp-web/components starts both workers from the package (none copied, no path of this repository)', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/embed.html`);
    await page.locator('pp-platform[status="ready"]').waitFor({ timeout: 30_000 });
    const hub = await page.evaluate(() =>
      (
        document.querySelector('pp-platform') as unknown as { hub: { incarnation(): Promise<string> } }
      ).hub.incarnation(),
    );
    expect(hub).toEqual(expect.any(String));
    await page.close();
  });

  it('vite build + vite preview serve the same sandbox for the built activity', async () => {
    await promisify(execFile)(process.execPath, [join(projectDir, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: projectDir,
    });
    const port = await freePort();
    const preview = await startVite(projectDir, ['preview'], port);
    sandboxApi = apiOf(preview);
    try {
      const fresh = await browser.newContext();
      const page = await fresh.newPage();
      await page.goto(`http://localhost:${port}/__platformpp/?as=chen`);
      const frame = await activityFrame(page);
      await page.getByRole('button', { name: 'Authorize' }).click({ timeout: 30_000 });
      await expect.poll(() => text(frame, 'status'), { timeout: 30_000 }).toBe('authenticated');
      expect(await text(frame, 'error')).toBe('');
      expect(await text(frame, 'user')).toBe('chen');
      await fresh.close();
    } finally {
      await preview.stop();
    }
  });
});

/**
 * CONTRACT §6, the Vite plugin's `server` option, end to end as a new user meets it: the
 * package packed (with the platform server) and installed offline into a fresh Vite project
 * that also installed the optional `miniflare`. With `platformpp({ server: true })` the dev
 * server starts the platform server in its own process and prints its URL; the sandbox page
 * and the activity (the public embedded-app SDK, unchanged) use it instead of the browser's
 * IndexedDB, and the activity's backend exchanges the code with its client secret at
 * `<url>/api/oauth2/token`, server to server. Stopping the dev server stops the platform server.
 * With `server: '<url>'` a server already running is used. A phone (a mobile viewport with
 * touch, on localhost as `adb reverse` makes it) and a laptop play in one instance; the page
 * holds no client secret, and on an origin that is not a secure context it says what works there
 * and what does not (`package-plugin-phone.test.ts` plays the activity there).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start.js';
import { createProject, freePort, packPackage, startVite, writeFiles, type ViteProcess } from './packed-project';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium';
import { launchChromium } from './site-server';
import { VOICE_OPCODES } from '../../src/gateway/voice-protocol';
import { connectWire, identifyWire } from '../server/gateway-client';

const root = fileURLToPath(new URL('../..', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'platformpp-package-server-'));
const projectDir = join(workDir, 'my-activity');
const CLIENT_ID = '1234567890123456789';
const CLIENT_SECRET = 'starter-secret-0123456789';

/** The activity, as the platform's starter writes it: the public SDK, its own backend at /api/token. */
const MAIN_JS = `import { DiscordSDK } from '@discord/embedded-app-sdk';

const discordSdk = new DiscordSDK(import.meta.env.VITE_CLIENT_ID);
const show = (id, text) => (document.getElementById(id).textContent = text);

async function setupDiscordSdk() {
  await discordSdk.ready();
  const { code } = await discordSdk.commands.authorize({
    client_id: import.meta.env.VITE_CLIENT_ID,
    response_type: 'code',
    state: '',
    prompt: 'none',
    scope: ['identify', 'guilds', 'rpc.voice.read'],
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
  });
  show('guilds', (await guilds.json()).map((g) => g.name).join(', '));
  show('served-by', guilds.headers.get('X-Served-By'));
  const avatar = new Image();
  avatar.src = 'https://cdn.discordapp.com/embed/avatars/0.png?size=64';
  await avatar.decode();
  show('avatar', String(avatar.naturalWidth));
  const heard = [];
  const hear = (kind) => (d) => {
    heard.push(kind + ' ' + d.user_id);
    show('speaking', heard.join(', '));
  };
  await discordSdk.subscribe('SPEAKING_START', hear('start'), { channel_id: discordSdk.channelId });
  await discordSdk.subscribe('SPEAKING_STOP', hear('stop'), { channel_id: discordSdk.channelId });
  show('status', 'authenticated');
}

setupDiscordSdk().catch((error) => show('error', error?.message ?? JSON.stringify(error)));
`;

const viteConfig = (server: string, backendPort: number, extra = '') => `import { defineConfig } from 'vite';
import { platformpp } from 'platformpp-web/vite';

export default defineConfig({
  plugins: [platformpp({ server: ${server} })],
  server: { ${extra}proxy: { '/api': { target: 'http://127.0.0.1:${backendPort}', changeOrigin: true } } },
});
`;

const PROJECT_FILES = (backendPort: number): Record<string, string> => ({
  '.env': `VITE_CLIENT_ID=${CLIENT_ID}\nCLIENT_SECRET=${CLIENT_SECRET}\n`,
  'vite.config.js': viteConfig('true', backendPort),
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>My Activity</title></head>
  <body>
    <dl>
      <dt>status</dt><dd id="status">loading</dd>
      <dt>user</dt><dd id="user"></dd>
      <dt>guilds</dt><dd id="guilds"></dd>
      <dt>served by</dt><dd id="served-by"></dd>
      <dt>avatar</dt><dd id="avatar"></dd>
      <dt>speaking</dt><dd id="speaking"></dd>
      <dt>error</dt><dd id="error"></dd>
    </dl>
    <script type="module" src="/src/main.js"></script>
  </body>
</html>
`,
  'src/main.js': MAIN_JS,
});

/** The backend, as the starter's: it exchanges the code with the client secret at the URL the plugin printed. */
function startBackend(platformApi: () => string, exchanged: string[]): Promise<Server> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const { code } = JSON.parse(body) as { code: string };
    const url = `${platformApi()}/oauth2/token`;
    exchanged.push(url);
    const response = await fetch(url, {
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

const text = (frame: Frame, id: string) => frame.locator(`#${id}`).textContent();

/** `userId` joins the world's voice channel on the server at `base`, as a client on another machine does. */
async function joinServerCall(
  base: string,
  world: { application_id: string; guild_id: string; channel_id: string },
  userId: string,
) {
  const tokens = await fetch(`${base}/sandbox/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ application_id: world.application_id, user_id: userId, scopes: 'identify guilds' }),
  });
  const token = ((await tokens.json()) as { access_token: string }).access_token;
  const gateway = await identifyWire(`${base.replace(/^http/, 'ws')}/gateway?v=10&encoding=json`, `Bearer ${token}`, {
    intents: 1 | (1 << 7),
  });
  gateway.send({
    op: 4,
    d: { guild_id: world.guild_id, channel_id: world.channel_id, self_mute: false, self_deaf: false },
  });
  const server = (await gateway.waitForDispatch('VOICE_SERVER_UPDATE')).d;
  const voice = await connectWire(`${server.endpoint}?v=8`, VOICE_OPCODES.HELLO);
  voice.send({
    op: VOICE_OPCODES.IDENTIFY,
    d: {
      server_id: world.guild_id,
      user_id: userId,
      session_id: gateway.ready.session_id,
      token: server.token,
      max_dave_protocol_version: 1,
    },
  });
  const ready = (await voice.waitFor((p) => p.op === VOICE_OPCODES.READY)).d;
  voice.send({
    op: VOICE_OPCODES.SELECT_PROTOCOL,
    d: { protocol: 'udp', data: { address: '127.0.0.1', port: 0, mode: ready.modes[0] } },
  });
  await voice.waitFor((p) => p.op === VOICE_OPCODES.SESSION_DESCRIPTION);
  return { token, gateway, voice };
}

/** Opens the sandbox page as alice, clicks "Authorize", and waits until the activity authenticated. */
async function authorizeAsAlice(browser: Browser, base: string): Promise<{ page: Page; frame: Frame }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/__platformpp/`);
  await expect.poll(() => page.frames().find((f) => f.url().includes('frame_id=')), { timeout: 60_000 }).toBeTruthy();
  const frame = page.frames().find((f) => f.url().includes('frame_id='))!;
  await page.getByRole('button', { name: 'Authorize' }).click({ timeout: 30_000 });
  await expect.poll(() => text(frame, 'status'), { timeout: 30_000 }).toBe('authenticated');
  return { page, frame };
}

describe('platformpp({ server }) in a new Vite project (CONTRACT §6, §7)', () => {
  let browser: Browser;
  let backend: Server;
  let vite: ViteProcess | undefined;
  let external: RunningServer | undefined;
  let backendApi = '';
  /** The dev server's port while it uses the external server. */
  let externalPort = 0;
  const exchanged: string[] = [];
  const printed = (process: ViteProcess, label: string) =>
    new RegExp(`${label}: (\\S+)`).exec(process.output())?.[1].replace(/\/$/, '') ?? '';

  beforeAll(async () => {
    const tarball = await packPackage(root, workDir, { server: true });
    backend = await startBackend(() => backendApi, exchanged);
    await createProject(root, projectDir, tarball, PROJECT_FILES((backend.address() as AddressInfo).port), [
      'miniflare',
    ]);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await vite?.stop();
    await external?.stop();
    backend?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('server: true starts the platform server in the dev server, prints its URL, and the backend exchanges the code there', async () => {
    const port = await freePort();
    vite = await startVite(projectDir, [], port);
    const serverUrl = printed(vite, 'platformpp server');
    expect(serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    backendApi = printed(vite, 'platformpp API for your backend');
    expect(backendApi).toBe(`${serverUrl}/api`);

    const { page, frame } = await authorizeAsAlice(browser, `http://localhost:${port}`);
    expect(await text(frame, 'error')).toBe('');
    expect(await text(frame, 'user')).toBe('alice');
    expect(await text(frame, 'guilds')).toBe('platformpp Sandbox');
    expect(await text(frame, 'served-by')).toBe('platformpp-server');
    expect(await text(frame, 'avatar')).toBe('64');
    // The backend exchanged the code with its secret at the server's own URL.
    expect(exchanged).toEqual([`${serverUrl}/api/oauth2/token`]);
    // The page's world lives on the server: a program reads it there, no page involved.
    const world = await (await fetch(`${serverUrl}/sandbox/fixture-sets/platformpp-vite-sandbox-world`)).json();
    expect(Object.keys(world.fixture_set.value.users)).toEqual(['alice', 'bob', 'chen']);
    expect(world.fixture_set.value.application_id).toBe(CLIENT_ID);
    // The plugin's backend addresses lead to the same server, without a sandbox page.
    await page.context().close();
    const relayed = await fetch(`http://localhost:${port}/__platformpp/api/v10/gateway`);
    expect([relayed.status, relayed.headers.get('X-Served-By')]).toEqual([200, 'platformpp-server']);
    expect(((await relayed.json()) as { url: string }).url).toBe(`${serverUrl.replace('http', 'ws')}/gateway`);

    // Stopping the dev server stops the platform server it started.
    await vite.stop();
    vite = undefined;
    await expect(fetch(`${serverUrl}/api/v10/gateway`)).rejects.toThrow();
  });

  it("server: '<url>' uses a platform server already running: the page joins it, the backend reaches it", async () => {
    external = await startServer({
      port: 0,
      workerPath: join(projectDir, 'node_modules/platformpp-web/dist/server/worker.js'),
    });
    writeFiles(projectDir, {
      'vite.config.js': viteConfig(JSON.stringify(`${external.url}/`), (backend.address() as AddressInfo).port),
    });
    const port = await freePort();
    vite = await startVite(projectDir, [], port);
    externalPort = port;
    expect(printed(vite, 'platformpp server')).toBe(external.url);
    backendApi = printed(vite, 'platformpp API for your backend');
    expect(backendApi).toBe(`${external.url}/api`);
    const { frame } = await authorizeAsAlice(browser, `http://localhost:${port}`);
    expect([await text(frame, 'user'), await text(frame, 'served-by')]).toEqual(['alice', 'platformpp-server']);
    expect(exchanged.at(-1)).toBe(`${external.url}/api/oauth2/token`);
    const world = await fetch(`${external.url}/sandbox/fixture-sets/platformpp-vite-sandbox-world`);
    expect(world.status).toBe(200);
  });

  it("on a server, the cockpit's speaking goes through the server's voice gateway: the activity hears SPEAKING_START / SPEAKING_STOP, another client in the call hears op 5, and the speaker has a voice state", async () => {
    // Alice authorized this application on this server before: her activity asks with prompt none.
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://localhost:${externalPort}/__platformpp/`);
    await expect.poll(() => page.frames().find((f) => f.url().includes('frame_id=')), { timeout: 60_000 }).toBeTruthy();
    const frame = page.frames().find((f) => f.url().includes('frame_id='))!;
    await expect.poll(() => text(frame, 'status'), { timeout: 30_000 }).toBe('authenticated');
    const world = (await (await fetch(`${external!.url}/sandbox/fixture-sets/platformpp-vite-sandbox-world`)).json())
      .fixture_set.value;
    const alice = world.users.alice as string;
    // Bob's client is in the call, on the server's gateway and voice gateway.
    const bob = await joinServerCall(external!.url, world, world.users.bob);
    try {
      const speaks = page.getByRole('button', { name: 'Alice speaks' });
      await speaks.click();
      await expect.poll(() => text(frame, 'speaking'), { timeout: 20_000 }).toBe(`start ${alice}`);
      const spoken = (flags: number) =>
        bob.voice.waitFor((p) => p.op === 5 && p.d.user_id === alice && p.d.speaking === flags);
      expect((await spoken(1)).d).toMatchObject({ user_id: alice, speaking: 1 });
      const state = await fetch(`${external!.url}/api/v10/guilds/${world.guild_id}/voice-states/${alice}`, {
        headers: { Authorization: `Bearer ${bob.token}` },
      });
      expect(await state.json()).toMatchObject({ channel_id: world.channel_id, user_id: alice });
      await speaks.click();
      await expect.poll(() => text(frame, 'speaking'), { timeout: 10_000 }).toBe(`start ${alice}, stop ${alice}`);
      expect((await spoken(0)).d).toMatchObject({ user_id: alice, speaking: 0 });
    } finally {
      bob.voice.socket.close();
      bob.gateway.socket.close();
      await page.context().close();
    }
  });

  it('a phone and a laptop in one instance: the page holds no client secret; on an insecure origin it says what is missing', async () => {
    await vite?.stop();
    vite = undefined;
    writeFiles(projectDir, {
      'vite.config.js': viteConfig(
        JSON.stringify(external!.url),
        (backend.address() as AddressInfo).port,
        "allowedHosts: ['phone.test'], ",
      ),
    });
    const port = await freePort();
    vite = await startVite(projectDir, [], port);
    backendApi = printed(vite, 'platformpp API for your backend');
    // Alice authorized this application on this server before: her activity asks with prompt none.
    const laptopContext = await browser.newContext();
    const laptop = { page: await laptopContext.newPage() };
    await laptop.page.goto(`http://localhost:${port}/__platformpp/`);
    await expect
      .poll(() => laptop.page.frames().find((f) => f.url().includes('frame_id=')), { timeout: 60_000 })
      .toBeTruthy();
    const laptopFrame = laptop.page.frames().find((f) => f.url().includes('frame_id='))!;
    await expect.poll(() => text(laptopFrame, 'status'), { timeout: 30_000 }).toBe('authenticated');
    expect(await laptop.page.content()).not.toContain(CLIENT_SECRET);

    // The phone, on USB with adb reverse: a localhost page, a mobile viewport and touch.
    const phoneContext = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const phone = await phoneContext.newPage();
    await phone.goto(`http://localhost:${port}/__platformpp/?as=bob`);
    await expect
      .poll(() => phone.frames().find((f) => f.url().includes('frame_id=')), { timeout: 60_000 })
      .toBeTruthy();
    const phoneFrame = phone.frames().find((f) => f.url().includes('frame_id='))!;
    await phone.getByRole('button', { name: 'Authorize' }).tap({ timeout: 30_000 });
    await expect.poll(() => text(phoneFrame, 'status'), { timeout: 30_000 }).toBe('authenticated');
    expect(await text(phoneFrame, 'user')).toBe('bob');
    // The backend exchanged Bob's code with the client secret the plugin set on the server.
    expect(exchanged.at(-1)).toBe(`${external!.url}/api/oauth2/token`);
    const instanceOf = (page: Page) =>
      page.evaluate(() => {
        const { frame } = (globalThis as any).platformppSandbox;
        return { id: frame.instance.instance_id as string, users: frame.instance.participants.length as number };
      });
    await expect.poll(() => instanceOf(laptop.page), { timeout: 15_000 }).toMatchObject({ users: 2 });
    expect((await instanceOf(phone)).id).toBe((await instanceOf(laptop.page)).id);

    // A phone on the network without adb: an origin that is not a secure context (still loopback traffic).
    const lan = await chromium.launch({
      executablePath: chromiumPath(),
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP phone.test 127.0.0.1'],
      headless: true,
    });
    try {
      const insecure = await (
        await lan.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
      ).newPage();
      const response = await insecure.goto(`http://phone.test:${port}/__platformpp/?as=chen`);
      expect(response?.status()).toBe(200);
      expect(await insecure.evaluate(() => [isSecureContext, 'serviceWorker' in navigator])).toEqual([false, false]);
      expect(await insecure.content()).not.toContain(CLIENT_SECRET);
      const notice = insecure.locator('#platformpp-insecure-origin');
      await notice.waitFor({ timeout: 30_000 });
      expect(await notice.textContent()).toMatch(/not a secure context.*no service worker.*offline.*adb reverse/s);
    } finally {
      await lan.close();
      await phoneContext.close();
      await laptopContext.close();
    }
  }, 180_000);

  it("a server deployed with a control secret: the page works through the plugin's relay, which holds the secret", async () => {
    await vite?.stop();
    vite = undefined;
    const secret = 'deployed-control-secret-42';
    const deployed = await startServer({
      port: 0,
      controlSecret: secret,
      workerPath: join(projectDir, 'node_modules/platformpp-web/dist/server/worker.js'),
    });
    try {
      writeFiles(projectDir, {
        'vite.config.js': viteConfig(JSON.stringify(deployed.url), (backend.address() as AddressInfo).port),
        '.env.local': `PLATFORMPP_CONTROL_SECRET=${secret}\n`,
      });
      const port = await freePort();
      vite = await startVite(projectDir, [], port);
      backendApi = printed(vite, 'platformpp API for your backend');
      const { page, frame } = await authorizeAsAlice(browser, `http://localhost:${port}`);
      expect([await text(frame, 'user'), await text(frame, 'served-by')]).toEqual(['alice', 'platformpp-server']);
      expect(await page.content()).not.toContain(secret);
      // The world and the consent were made with the secret; without it the server refuses them.
      const world = `${deployed.url}/sandbox/fixture-sets/platformpp-vite-sandbox-world`;
      expect((await fetch(world)).status).toBe(401);
      expect((await fetch(world, { headers: { 'X-Sandbox-Secret': secret } })).status).toBe(200);
      await page.context().close();
    } finally {
      await vite?.stop();
      vite = undefined;
      writeFiles(projectDir, { '.env.local': '' });
      await deployed.stop();
    }
  });
});

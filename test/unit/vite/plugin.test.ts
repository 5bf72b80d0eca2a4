// @vitest-environment node
/**
 * CONTRACT §6: `plugins: [platformpp()]` makes a project's dev server serve the sandbox at
 * `/__platformpp/` (the host page with the application of the project's `.env`, and the
 * service worker allowed to control the whole origin), leaving every other path to Vite. The
 * page carries the client secret, so only this machine gets it. With `server: '<url>'`, the page
 * joins that platform server and the backend addresses lead to it; the page then holds no secret
 * (the plugin sets it on the server) and is served to other devices of the network.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { platformpp } from '../../../src/vite/index';
import { isLoopbackHost, sandboxMiddleware } from '../../../src/vite/sandbox-server';
import { sandboxPageConfig } from '../../../src/vite/options';

const project = resolve('test-results', `vite-plugin-${process.pid}`);

/** A GET naming `host` as its Host header (a device of the network reaching the dev server). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { host } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}
let server: ViteDevServer;
let base: string;

beforeAll(async () => {
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, '.env'), 'VITE_CLIENT_ID=1234567890123456789\nCLIENT_SECRET=secret-of-the-env\n');
  writeFileSync(join(project, 'index.html'), '<!doctype html><p>the activity</p>');
  server = await createServer({
    configFile: false,
    root: project,
    logLevel: 'silent',
    plugins: [platformpp()],
    server: { host: '127.0.0.1', port: 0 },
  });
  await server.listen();
  base = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await server?.close();
  rmSync(project, { recursive: true, force: true });
});

describe('platformpp() on a project’s dev server (CONTRACT §6)', () => {
  it('serves the host page at /__platformpp/ with the application of the project’s .env', async () => {
    const response = await fetch(`${base}/__platformpp/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    const json = /<script type="application\/json" id="platformpp-sandbox">(.*?)<\/script>/s.exec(html)![1];
    expect(JSON.parse(json)).toMatchObject({
      application: { id: '1234567890123456789', secret: 'secret-of-the-env' },
      activity: '/',
      users: ['alice', 'bob', 'chen'],
    });
    expect(html).toContain('<script type="module" src="/__platformpp/host.js"></script>');
    expect((await fetch(`${base}/__platformpp`, { redirect: 'manual' })).headers.get('location')).toBe(
      '/__platformpp/',
    );
  });

  it("leaves the project's own pages to Vite", async () => {
    const page = await fetch(`${base}/`);
    expect(await page.text()).toContain('the activity');
  });

  it('excludes the package from dependency pre-bundling, so its workers stay next to it', () => {
    expect(server.config.optimizeDeps.exclude).toContain('platformpp-web');
  });
});

describe("platformpp({ server: '<url>' }) on a project's dev server (CONTRACT §6)", () => {
  let platform: Server;
  let platformUrl: string;
  let dev: ViteDevServer;
  let devBase: string;
  const seen: { method: string; url: string; auth: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    // Stands in for the platform server: it says what reached it.
    platform = createHttpServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Served-By': 'platformpp-server' });
      res.end(JSON.stringify({ answered: req.url }));
    });
    await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
    platformUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
    dev = await createServer({
      root: project,
      configFile: false,
      logLevel: 'silent',
      plugins: [platformpp({ server: `${platformUrl}/s/team/` })],
      server: { host: '127.0.0.1', port: 0 },
    });
    await dev.listen();
    devBase = `http://127.0.0.1:${(dev.httpServer!.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await dev?.close();
    platform?.close();
  });

  it('the sandbox page joins that server: its settings name it', async () => {
    const html = await (await fetch(`${devBase}/__platformpp/`)).text();
    const json = /<script type="application\/json" id="platformpp-sandbox">(.*?)<\/script>/s.exec(html)![1];
    expect(JSON.parse(json)).toMatchObject({ server: `${platformUrl}/s/team`, serverError: null });
  });

  it('on a server the page holds no client secret, and is served to other devices of the network (a phone)', async () => {
    const html = await (await fetch(`${devBase}/__platformpp/`)).text();
    expect(html).not.toContain('secret-of-the-env');
    const json = /<script type="application\/json" id="platformpp-sandbox">(.*?)<\/script>/s.exec(html)![1];
    expect(JSON.parse(json)).toMatchObject({ application: { secret: null }, secretHeldByPlugin: true });
    const fromPhone = await getWithHost(`${devBase}/__platformpp/`, '192.168.1.20:5173');
    expect(fromPhone.status).toBe(200);
    expect(fromPhone.body).not.toContain('secret-of-the-env');
  });

  it("POST /__platformpp/application-secret: the plugin sets the secret it holds on the server's application, and never answers it", async () => {
    const response = await fetch(`${devBase}/__platformpp/application-secret`, {
      method: 'POST',
      body: JSON.stringify({ application_id: '1234567890123456789' }),
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(seen.at(-1)).toMatchObject({
      method: 'PATCH',
      url: '/s/team/sandbox/applications/1234567890123456789',
      body: JSON.stringify({ client_secret: 'secret-of-the-env' }),
    });
    const bad = await fetch(`${devBase}/__platformpp/application-secret`, {
      method: 'POST',
      body: '{"application_id":"x"}',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.application_id).toBeDefined();
  });

  it('the backend addresses /__platformpp/api/... lead to the server itself, no sandbox page needed', async () => {
    const response = await fetch(`${devBase}/__platformpp/api/oauth2/token?x=1`, {
      method: 'POST',
      headers: { Authorization: 'Basic abc', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=c',
    });
    expect([response.status, response.headers.get('X-Served-By')]).toEqual([201, 'platformpp-server']);
    expect(await response.json()).toEqual({ answered: '/s/team/api/oauth2/token?x=1' });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: '/s/team/api/oauth2/token?x=1',
      auth: 'Basic abc',
      body: 'grant_type=authorization_code&code=c',
    });
  });
});

describe("platformpp({ server: '<url>' }) of a server deployed with a control secret", () => {
  let platform: Server;
  let platformUrl: string;
  let dev: ViteDevServer;
  let devBase: string;
  const seen: { method: string; url: string; secret: string | undefined }[] = [];

  beforeAll(async () => {
    // Stands in for the deployed server: it says what reached it, and redirects its consent route.
    platform = createHttpServer((req, res) => {
      seen.push({ method: req.method!, url: req.url!, secret: req.headers['x-sandbox-secret'] as string | undefined });
      req.resume();
      if (req.url?.includes('/oauth2/authorize')) {
        res.writeHead(302, { Location: 'https://app.example/callback?code=c' });
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Served-By': 'platformpp-server' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
    platformUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
    writeFileSync(join(project, '.env.deployed'), 'PLATFORMPP_CONTROL_SECRET=never-in-a-page\n');
    dev = await createServer({
      root: project,
      mode: 'deployed',
      configFile: false,
      logLevel: 'silent',
      plugins: [platformpp({ server: platformUrl })],
      server: { host: '127.0.0.1', port: 0 },
    });
    await dev.listen();
    devBase = `http://127.0.0.1:${(dev.httpServer!.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await dev?.close();
    platform?.close();
  });

  it('the page never holds the secret: it reaches the server through /__platformpp/server/, whose relay sends it', async () => {
    const html = await (await fetch(`${devBase}/__platformpp/`)).text();
    expect(html).not.toContain('never-in-a-page');
    const json = /<script type="application\/json" id="platformpp-sandbox">(.*?)<\/script>/s.exec(html)![1];
    expect(JSON.parse(json)).toMatchObject({ server: platformUrl, serverPath: '/__platformpp/server' });

    const relayed = await fetch(`${devBase}/__platformpp/server/sandbox/clock?x=1`);
    expect([relayed.status, relayed.headers.get('X-Served-By')]).toEqual([200, 'platformpp-server']);
    expect(seen.at(-1)).toEqual({ method: 'GET', url: '/sandbox/clock?x=1', secret: 'never-in-a-page' });
    // The backend addresses send it too.
    await fetch(`${devBase}/__platformpp/sandbox/users`, { method: 'POST', body: '{}' });
    expect(seen.at(-1)).toEqual({ method: 'POST', url: '/sandbox/users', secret: 'never-in-a-page' });
  });

  it("the server's redirects reach the page as they are (the consent decision's), not followed by the relay", async () => {
    const decision = await fetch(`${devBase}/__platformpp/server/api/oauth2/authorize?client_id=1`, {
      method: 'POST',
      body: '{}',
      redirect: 'manual',
    });
    expect([decision.status, decision.headers.get('Location')]).toEqual([302, 'https://app.example/callback?code=c']);
  });
});

describe('the sandbox middleware', () => {
  const dir = resolve('test-results', `sandbox-files-${process.pid}`);
  const config = sandboxPageConfig({}, { VITE_CLIENT_ID: '1', CLIENT_SECRET: 'a-secret-123' }, '/');
  const middleware = sandboxMiddleware(dir, () => config);

  beforeAll(() => {
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(dir, 'assets', 'hub-worker-x.js'), 'onconnect = () => {};');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the middleware on one request: the answer, or null when it called next(). */
  function call(url: string, host = 'localhost:5173') {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: string } | null>((resolve) => {
      const res = {
        headers: {} as Record<string, unknown>,
        status: 0,
        writeHead(status: number, headers: Record<string, unknown>) {
          this.status = status;
          Object.assign(this.headers, headers);
        },
        end(body?: string | Buffer) {
          resolve({ status: this.status, headers: this.headers, body: String(body ?? '') });
        },
      };
      middleware({ url, headers: { host } } as never, res as never, () => resolve(null));
    });
  }

  it('serves the service worker with Service-Worker-Allowed: / so it may control the whole origin', async () => {
    const reply = await call('/__platformpp/sw.js');
    expect(reply).toMatchObject({ status: 200, headers: { 'Service-Worker-Allowed': '/' } });
    expect(reply!.headers['Content-Type']).toMatch(/javascript/);
    const worker = await call('/__platformpp/assets/hub-worker-x.js');
    expect(worker).toMatchObject({ status: 200, body: 'onconnect = () => {};' });
    expect(worker!.headers).not.toHaveProperty('Service-Worker-Allowed');
  });

  it('answers 404 for a file it does not have, and never serves a file outside its directory', async () => {
    expect((await call('/__platformpp/nothing.js'))!.status).toBe(404);
    const escape = await call('/__platformpp/../package.json');
    expect(escape === null || escape.status === 404).toBe(true);
    expect(await call('/__platformpp/%2e%2e/%2e%2e/package.json').then((r) => r?.status ?? 'next')).not.toBe(200);
  });

  it('serves the sandbox only to this machine: a tunnel’s host is refused with 403, saying why', async () => {
    const reply = await call('/__platformpp/', 'abc.trycloudflare.com');
    expect(reply!.status).toBe(403);
    expect(reply!.body).toMatch(/client secret/);
    expect(reply!.body).not.toContain('a-secret-123');
    for (const host of ['localhost:5173', '127.0.0.1:4173', '[::1]:5173', 'my-app.localhost:5173'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['192.168.1.4:5173', 'example.com', undefined]) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('calls next() for every path outside /__platformpp/', async () => {
    for (const path of ['/', '/src/main.ts', '/__platformppx', '/api/token']) expect(await call(path), path).toBeNull();
  });
});

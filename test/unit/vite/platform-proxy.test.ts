// @vitest-environment node
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { platformRouteList } from '../../../sw/app';
import { isPlatformPath, PLATFORM_API_SECTIONS, platformProxy } from '../../../src/vite/platform-proxy';
import { isPlatformSocketPath } from '../../../src/vite/platform-socket-proxy';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** A node:http server on a free port answering with `handle`; its origin. */
async function listen(handle: (req: IncomingMessage, res: import('node:http').ServerResponse) => void) {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the dev server's platform proxy for pages without a service worker", () => {
  it('takes the platform paths, with or without /.proxy, and leaves the activity its own /api paths', () => {
    for (const path of [
      '/api/v10/users/@me',
      '/.proxy/api/v10/lobbies/1',
      '/api/users/@me',
      '/api/oauth2/token',
      '/sandbox',
      '/sandbox/users',
      '/oauth2/authorize',
      '/attachments/1/2/a.png',
      '/.well-known/openid-configuration',
    ])
      expect([path, isPlatformPath(path)]).toEqual([path, true]);
    for (const path of ['/api/token', '/.proxy/api/token', '/', '/src/main.js', '/.proxy/game/moves'])
      expect([path, isPlatformPath(path)]).toEqual([path, false]);
  });

  it("knows every section of the platform's unversioned API (the route table's)", () => {
    const sections = new Set(
      platformRouteList()
        .map((route) => route.path)
        .filter((path) => path.startsWith('/api/'))
        .map((path) => path.split('/')[2]),
    );
    expect([...sections].filter((section) => !PLATFORM_API_SECTIONS.has(section))).toEqual([]);
    expect([...PLATFORM_API_SECTIONS].filter((section) => !sections.has(section))).toEqual([]);
  });

  it("pipes the server's sockets only: the gateway, the voice gateway, the instance socket, also under a sandbox's path", () => {
    expect(['/gateway', '/gateway/', '/voice', '/activity-instances'].map((p) => isPlatformSocketPath(p, ''))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(isPlatformSocketPath('/s/team-a/gateway', '/s/team-a')).toBe(true);
    expect(['/', '/@vite/client', '/gatewayx'].map((p) => isPlatformSocketPath(p, ''))).toEqual([false, false, false]);
  });

  it("sends a platform path to the server with the page's Host and the control secret; the rest goes on, /.proxy folded", async () => {
    const seen: { url?: string; host?: string; secret?: string }[] = [];
    const platform = await listen((req, res) => {
      if (req.url === '/sandbox/url-mappings/resolve')
        return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"target":null}');
      seen.push({ url: req.url, host: req.headers.host, secret: req.headers['x-sandbox-secret'] as string });
      res.writeHead(200, { 'X-Served-By': 'platformpp-server' }).end('from the server');
    });
    const proxy = platformProxy({ server: async () => platform, controlSecret: 'the-secret' });
    const devServer = await listen((req, res) =>
      proxy(req, res, () => res.writeHead(200).end(`dev server: ${req.url}`)),
    );
    const api = await fetch(`${devServer}/.proxy/api/v10/users/@me`);
    expect([api.headers.get('X-Served-By'), await api.text()]).toEqual(['platformpp-server', 'from the server']);
    expect(seen).toEqual([{ url: '/.proxy/api/v10/users/@me', host: new URL(devServer).host, secret: 'the-secret' }]);
    expect(await (await fetch(`${devServer}/.proxy/api/token`)).text()).toBe('dev server: /api/token');
    expect(await (await fetch(`${devServer}/src/main.js`)).text()).toBe('dev server: /src/main.js');
  });

  it('sends a mapped /.proxy/ request to its target from the dev server, as the server resolves it', async () => {
    const target = await listen((req, res) => res.writeHead(200).end(`target: ${req.method} ${req.url}`));
    const platform = await listen(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const { url } = JSON.parse(body) as { url: string };
      const mapped = new URL(url).pathname.startsWith('/.proxy/game/');
      const answer = mapped ? { target: { url: `${target}/moves`, prefix: '/game' } } : { target: null };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
    const proxy = platformProxy({ server: async () => platform, controlSecret: null });
    const devServer = await listen((req, res) => proxy(req, res, () => res.writeHead(404).end()));
    const answer = await fetch(`${devServer}/.proxy/game/moves`, { method: 'POST', body: 'bob' });
    expect(await answer.text()).toBe('target: POST /moves');
  });
});

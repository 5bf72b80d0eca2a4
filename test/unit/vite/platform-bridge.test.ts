// @vitest-environment node
/**
 * The backend bridge of `platformpp()`: an activity's backend calls the platform at
 * `/__platformpp/api/...` on the dev server, which relays each request to an open sandbox page
 * (server-sent events) and answers with what the page posts back. No page: 503; a silent one:
 * 504. Driven here by a page stand-in speaking the bridge's wire over real HTTP.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_PATH, PlatformBridge, type BridgeRequest } from '../../../src/vite/platform-bridge';

let server: Server | undefined;
const aborts: AbortController[] = [];

afterEach(async () => {
  for (const abort of aborts.splice(0)) abort.abort();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
});

async function start(bridge = new PlatformBridge()): Promise<{ base: string; bridge: PlatformBridge }> {
  server = createServer((req, res) =>
    bridge.middleware(req, res, () => {
      res.writeHead(404);
      res.end('not the bridge');
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bridge };
}

/** A sandbox page stand-in: listens to the event stream and hands each request to `handle`. */
async function page(base: string, handle: (request: BridgeRequest) => Promise<void>): Promise<void> {
  const abort = new AbortController();
  aborts.push(abort);
  const response = await fetch(`${base}${BRIDGE_PATH}`, { signal: abort.signal });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (event.startsWith('data: ')) void handle(JSON.parse(event.slice(6)));
      }
    }
  })();
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('the backend bridge (/__platformpp/api/... on the dev server)', () => {
  it('relays a backend request to the sandbox page and answers with the page’s answer: status, headers, body', async () => {
    const { base, bridge } = await start();
    const seen: BridgeRequest[] = [];
    await page(base, async (request) => {
      seen.push(request);
      await fetch(`${base}${BRIDGE_PATH}/${request.id}`, {
        method: 'POST',
        body: JSON.stringify({
          status: 200,
          headers: [
            ['content-type', 'application/json'],
            ['x-served-by', 'platformpp-sw'],
          ],
          body: b64('{"access_token":"t"}'),
        }),
      });
    });
    await expect.poll(() => bridge.listening).toBe(1);
    const response = await fetch(`${base}/__platformpp/api/oauth2/token?x=1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: 'Basic abc' },
      body: 'grant_type=authorization_code&code=c',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-served-by')).toBe('platformpp-sw');
    expect(await response.json()).toEqual({ access_token: 't' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      path: '/api/oauth2/token?x=1',
      body: b64('grant_type=authorization_code&code=c'),
    });
    const headers = Object.fromEntries(seen[0].headers);
    expect(headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic abc' });
    expect(headers).not.toHaveProperty('host');
  });

  it('the sandbox control API is relayed too; other paths are not the bridge’s', async () => {
    const { base } = await start();
    const paths: string[] = [];
    await page(base, async (request) => {
      paths.push(request.path);
      await fetch(`${base}${BRIDGE_PATH}/${request.id}`, {
        method: 'POST',
        body: JSON.stringify({ status: 204, headers: [], body: '' }),
      });
    });
    expect((await fetch(`${base}/__platformpp/sandbox/reset`, { method: 'POST' })).status).toBe(204);
    expect(paths).toEqual(['/sandbox/reset']);
    expect(await (await fetch(`${base}/__platformpp/apix`)).text()).toBe('not the bridge');
    expect(await (await fetch(`${base}/api/users/@me`)).text()).toBe('not the bridge');
  });

  it('no sandbox page open: 503 saying to open one', async () => {
    const { base } = await start();
    const response = await fetch(`${base}/__platformpp/api/users/@me`);
    expect(response.status).toBe(503);
    expect((await response.json()).message).toMatch(/No sandbox page is open.*__platformpp\//);
  });

  it('a page that does not answer: 504 after the wait, and a late answer is refused', async () => {
    const { base, bridge } = await start(new PlatformBridge(200));
    let late: BridgeRequest | undefined;
    await page(base, async (request) => {
      late = request;
    });
    await expect.poll(() => bridge.listening).toBe(1);
    const response = await fetch(`${base}/__platformpp/api/users/@me`);
    expect(response.status).toBe(504);
    const reply = await fetch(`${base}${BRIDGE_PATH}/${late!.id}`, { method: 'POST', body: '{}' });
    expect(reply.status).toBe(404);
  });

  it('a page that closes stops listening', async () => {
    const { base, bridge } = await start();
    await page(base, async () => undefined);
    await expect.poll(() => bridge.listening).toBe(1);
    aborts[0].abort();
    await expect.poll(() => bridge.listening).toBe(0);
  });
});

/**
 * Voice between two machines through a server (CONTRACT §7): the platform server started
 * through Miniflare, and the built site opened with `?server=<sandbox>` in two browser contexts
 * of Chromium (no storage, service worker or shared worker in common). The game SDK's `Client`
 * in each joins one lobby call unchanged: the join on the server's gateway, the voice gateway
 * the server's VOICE_SERVER_UPDATE names (a real WebSocket), and the audio from one page to the
 * other over WebRTC, end-to-end encrypted. Levels are sampled over time (the fake microphone
 * beeps).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverHosts } from './server-hosts';
import { hangUp, joinTwo, listen, platformReady } from './voice-call';

const WORKER_DIR = 'test-results/server-voice-dist';

/** A JSON call to the server from this process, as a backend makes it. */
async function serverApi(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

describe('voice between two machines that joined one server', () => {
  const hosts = serverHosts(WORKER_DIR);
  const contexts: BrowserContext[] = [];
  const uncaught: string[] = [];
  /** The WebSockets each machine's page opened, by machine. */
  const sockets = new Map<string, string[]>();

  /** A new "machine" (a browser context of its own) with the site joined to `sandbox`. */
  const machine = async (name: string, sandbox: string): Promise<Page> => {
    const context = await hosts.browser.newContext({ baseURL: hosts.site.baseURL });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => uncaught.push(`${name}: ${error.message}`));
    sockets.set(name, []);
    page.on('websocket', (socket) => sockets.get(name)!.push(socket.url()));
    await page.goto(`/?server=${encodeURIComponent(sandbox)}&as=${name}`);
    await platformReady(page, 60_000);
    return page;
  };

  it("a lobby call between two machines: the server's voice gateway signals, the receiver hears the sender, every frame decrypted", async () => {
    const sandbox = `${hosts.server.url}/s/calls`;
    const first = await machine('alice', sandbox);
    const second = await machine('bob', sandbox);
    const users = await joinTwo((method, path, body) => serverApi(sandbox, method, path, body), [first, second], {
      name: 'Machine Voice',
      usernames: ['caller', 'listener'],
      secret: 'machines',
    });

    const heard = await listen(second, users[0].id);
    expect(heard.peak).toBeGreaterThan(-40);
    expect(heard).toMatchObject({ e2ee: true, undecryptable: 0 });
    expect(heard.decrypted).toBeGreaterThan(50);

    // The call's signaling went through the server: each machine opened its voice gateway.
    const voice = `${sandbox.replace('http', 'ws')}/voice?v=8`;
    for (const name of ['alice', 'bob']) expect(sockets.get(name)).toContain(voice);
    await hangUp([first, second]);
    expect(uncaught).toEqual([]);
  });
});

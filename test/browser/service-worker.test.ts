import { beforeAll, describe, expect, it } from 'vitest';
import { registerPlatformWorker, resetSandbox, servedByWorker } from './harness';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

describe('service worker (CONTRACT §1)', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });

  it('controls the page once registered, from /sw.js with scope /', async () => {
    expect(navigator.serviceWorker.controller).not.toBeNull();
    expect(new URL(navigator.serviceWorker.controller!.scriptURL).pathname).toBe('/sw.js');
    const registration = await navigator.serviceWorker.getRegistration('/');
    expect(new URL(registration!.scope).pathname).toBe('/');
  });

  it('answers /api/v10/... itself, not the dev server', async () => {
    const response = await fetch('/api/v10/users/@me');
    expect(servedByWorker(response)).toBe(true);
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('answers the sandbox control API (POST /sandbox/reset, GET /sandbox/clock)', async () => {
    await resetSandbox();
    const response = await fetch('/sandbox/clock');
    expect(servedByWorker(response)).toBe(true);
    expect(response.status).toBe(200);
    const clock = (await response.json()) as { now: string; frozen: boolean };
    expect(clock.frozen).toBe(false);
    expect(Number.isNaN(Date.parse(clock.now))).toBe(false);
  });

  it('announces on the platformpp BroadcastChannel what it committed', async () => {
    const channel = new BroadcastChannel('platformpp');
    const announced = new Promise<unknown>((resolve) =>
      channel.addEventListener('message', (event) => resolve(event.data), { once: true }),
    );
    await resetSandbox();
    expect(await announced).toEqual({ type: 'reset' });
    channel.close();
  });

  it('answers /.proxy/api/v10/... exactly as /api/v10/...', async () => {
    const [direct, proxied] = await Promise.all([fetch('/api/v10/users/@me'), fetch('/.proxy/api/v10/users/@me')]);
    expect(servedByWorker(proxied)).toBe(true);
    expect(proxied.status).toBe(direct.status);
    expect(await proxied.text()).toBe(await direct.text());
  });

  it('answers authenticated reads with identical bodies under /api/v10, /api and /.proxy (GET /users/@me, GET /lobbies/{id}/messages), each from the worker', async () => {
    await resetSandbox();
    // A frozen platform clock far from the machine's: only the worker dates its answers so.
    const frozen = '2031-01-01T00:00:00.000Z';
    await fetch('/sandbox/clock', { method: 'PUT', headers: JSON_HEADERS, body: JSON.stringify({ now: frozen }) });
    try {
      const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
        (
          await fetch(path, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) })
        ).json();
      const { user } = await post('/sandbox/users', { username: 'alice' });
      const { application } = await post('/sandbox/applications', { name: 'Proxy Game' });
      const tokens = await post('/sandbox/tokens', {
        application_id: application.id,
        user_id: user.id,
        scopes: 'openid sdk.social_layer',
      });
      const auth = { Authorization: `Bearer ${tokens.access_token}` };
      const lobby = await (
        await fetch('/api/v10/lobbies', {
          method: 'PUT',
          headers: { ...JSON_HEADERS, ...auth },
          body: JSON.stringify({ secret: 'proxy' }),
        })
      ).json();
      for (const content of ['one', 'two', 'three'])
        await post(`/api/v10/lobbies/${lobby.id}/messages`, { content, metadata: { n: content } }, auth);

      for (const path of ['/users/@me', `/lobbies/${lobby.id}/messages?limit=200`]) {
        const responses = await Promise.all(
          ['/api/v10', '/api', '/.proxy/api/v10', '/.proxy/api'].map((prefix) =>
            fetch(`${prefix}${path}`, { headers: auth }),
          ),
        );
        for (const response of responses) {
          expect(response.status, response.url).toBe(200);
          expect(servedByWorker(response), response.url).toBe(true);
          expect(response.headers.get('Date'), response.url).toBe(new Date(frozen).toUTCString());
        }
        const [direct, ...others] = await Promise.all(responses.map((r) => r.text()));
        for (const other of others) expect(other).toBe(direct);
        const body = JSON.parse(direct);
        if (path === '/users/@me') expect(body).toMatchObject({ id: user.id, username: 'alice' });
        else
          expect(body.map((m: { content: string; timestamp: string }) => [m.content, m.timestamp])).toEqual([
            ['three', frozen],
            ['two', frozen],
            ['one', frozen],
          ]);
      }
    } finally {
      await fetch('/sandbox/clock', { method: 'DELETE' });
    }
  });

  it('lets a path it does not own go to the network untouched', async () => {
    const response = await fetch('/package.json');
    expect(servedByWorker(response)).toBe(false);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe('platformpp-web');
  });

  it('answers /.proxy/<file> with the same file as /<file>', async () => {
    const [direct, proxied] = await Promise.all([fetch('/package.json'), fetch('/.proxy/package.json')]);
    expect(proxied.status).toBe(200);
    expect(await proxied.text()).toBe(await direct.text());
  });

  it('forwards a URL-mapped /.proxy/<prefix>/... to its target over the network: an unreachable target is a 502 from the worker saying so', async () => {
    await resetSandbox();
    const post = await fetch('/sandbox/applications', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Mapped' }),
    });
    const { application } = (await post.json()) as { application: { id: string } };
    const put = await fetch(`/sandbox/applications/${application.id}/url-mappings`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url_mappings: [{ prefix: '/nowhere', target: 'platformpp-unreachable.invalid' }] }),
    });
    expect(put.status).toBe(200);
    const response = await fetch('/.proxy/nowhere/x');
    expect([response.status, servedByWorker(response)]).toEqual([502, true]);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /\/nowhere → https:\/\/platformpp-unreachable\.invalid could not reach its target/,
    );
    // Unmapped paths under /.proxy still answer as without it.
    expect((await fetch('/.proxy/package.json')).status).toBe(200);
  });
});

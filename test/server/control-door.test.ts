// @vitest-environment node
/**
 * A deployed server (its control secret set), seen from outside as an attacker and as a
 * keep-alive client see it:
 * - every route the access table opens to `sandbox` answers 401 without the secret, whatever its
 *   path (the consent decision `POST /oauth2/authorize` too, which minted a token for any user);
 * - every answer given before the request's body was read leaves the connection usable: the next
 *   request on the same keep-alive socket is answered.
 * One server for the file.
 */
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeKeyOf } from '../../src/platform/oauth2/route-access';
import { accessOf } from '../../src/platform/oauth2/route-access-table';
import { CONTROL_SECRET_HEADER } from '../../src/wire/paths';
import { platformRouteList } from '../../sw/app';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

const SECRET = 'correct horse battery staple';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ controlSecret: SECRET });
});
afterAll(() => server?.stop());

const withSecret = { [CONTROL_SECRET_HEADER]: SECRET };

describe('server: the control door of a deployment', () => {
  it('every control route of the access table answers 401 without the secret on the server, whatever its path', async () => {
    const api = sandboxClient(freshSandbox(server.url));
    const routes = platformRouteList().filter(
      (route) => accessOf(routeKeyOf(route.method, route.path))?.open === 'sandbox',
    );
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const path = route.path.replace(/:[A-Za-z0-9_]+/g, '123456789012345678');
      const refused = await api.request(route.method, path, route.method === 'GET' ? undefined : {});
      expect([route.method, path, refused.status]).toEqual([route.method, path, 401]);
    }
    // Nothing was made: with the secret, the sandbox has no user.
    const world = await api.request('GET', '/sandbox/users/123456789012345678', undefined, withSecret);
    expect(world.status).toBe(404);
  });

  it('no token for another user: the consent decision without the secret is 401, so no code and no token', async () => {
    const api = sandboxClient(freshSandbox(server.url));
    const victim = (await api.request('POST', '/sandbox/users', { username: 'victim' }, withSecret)).body.user;
    const app = (
      await api.request('POST', '/sandbox/applications', { name: 'Public', owner_id: victim.id }, withSecret)
    ).body.application;
    const query = new URLSearchParams({
      client_id: app.id,
      response_type: 'code',
      scope: 'identify',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const decision = { authorize: true, user_id: victim.id };
    for (const base of ['/api/oauth2', '/api/v10/oauth2', '/oauth2', '/.proxy/api/oauth2']) {
      const refused = await api.post(`${base}/authorize?${query}`, decision);
      expect([base, refused.status]).toEqual([base, 401]);
    }
    const allowed = await api.request('POST', `/api/oauth2/authorize?${query}`, decision, withSecret);
    expect(allowed.status).toBe(200);
  });
});

/** One keep-alive socket: each request waits for the previous one and says whether it reused the socket. */
function keepAliveClient(origin: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
      const req = httpRequest(`${origin}${path}`, { method, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
      });
      req.on('error', reject);
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}

describe('server: an early answer leaves the keep-alive connection usable', () => {
  it('after each kind of answer given before the body was read, the next request on the same socket is answered', async () => {
    const base = freshSandbox(server.url);
    const path = new URL(base).pathname;
    const client = keepAliveClient(new URL(base).origin);
    const body = JSON.stringify({ username: 'x'.repeat(200_000) });
    const json = { 'Content-Type': 'application/json' };
    const refusals: [string, string, string, number][] = [
      ['an unknown sandbox (the Worker)', 'POST', '/s/BAD/sandbox/users', 404],
      ['a control route without the secret', 'POST', `${path}/sandbox/users`, 401],
      ['an unknown route', 'POST', `${path}/api/v10/no-such-route`, 404],
      ['a method the route does not take', 'PATCH', `${path}/api/v10/gateway`, 405],
      ['an API route without its token', 'POST', `${path}/api/v10/lobbies`, 401],
      ['the CDN', 'POST', `${path}/cdn/embed/avatars/0.png`, 404],
    ];
    try {
      expect((await client.send('GET', `${path}/api/v10/gateway`)).status).toBe(200);
      for (const [kind, method, target, status] of refusals) {
        const refused = await client.send(method, target, body, json);
        expect([kind, refused.status]).toEqual([kind, status]);
        const next = await client.send('GET', `${path}/api/v10/gateway`);
        expect([kind, next.status, next.reused]).toEqual([kind, 200, true]);
      }
      // A body over the JSON limit is answered 413 before it is all read: the socket still serves.
      const huge = await client.send('POST', `${path}/sandbox/users`, 'x'.repeat(1024 * 1024 + 10), {
        ...json,
        ...withSecret,
      });
      expect(huge.status).toBe(413);
      const next = await client.send('GET', `${path}/api/v10/gateway`);
      expect([next.status, next.reused]).toEqual([200, true]);
    } finally {
      client.close();
    }
  });
});

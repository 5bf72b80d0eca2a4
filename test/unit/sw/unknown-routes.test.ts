// @vitest-environment node
/**
 * CONTRACT §2: an unknown route is `404 {"message": "404: Not Found", "code": 0}` and a wrong
 * method 405 / 0, whatever the token; a known route without a token is 401 / 0.
 */
import { describe, expect, it } from 'vitest';
import { buildApp, routeTable } from '../../../sw/app';
import { createTestClient, createWorld, EXPECTED_SERVED_BY } from '../app-harness';

const NOT_FOUND = { message: '404: Not Found', code: 0 };
const UNAUTHORIZED = { message: '401: Unauthorized', code: 0 };

async function world() {
  const client = await createTestClient();
  const w = await createWorld(client);
  const lobby = (await client.put('/api/v10/lobbies', { secret: 'routes' }, w.aliceAuth)).body;
  return { client, ...w, lobby, tokens: [undefined, 'Bot nope', 'Bearer nope', w.botAuth, w.aliceAuth] };
}

describe('unknown routes and wrong methods are answered before authentication (CONTRACT §2)', () => {
  it('an unknown /api route is 404 code 0 with no token, an unknown one, a bot token or a user token; under /api, /api/v10 and /.proxy', async () => {
    const w = await world();
    const paths = [
      '/api/v10/nothing',
      '/api/nothing',
      '/.proxy/api/v10/nothing',
      '/api/v10/users/@me/nothing',
      // Under resources whose own middleware checks scopes or the token kind first.
      `/api/v10/lobbies/${w.lobby.id}/nothing`,
      '/api/v10/rpc/nothing',
    ];
    for (const path of paths) {
      for (const token of w.tokens) {
        const reply = await w.client.get(path, token);
        expect(reply.status, `${path} with ${token?.split(' ')[0] ?? 'no'} token`).toBe(404);
        expect(reply.body).toEqual(NOT_FOUND);
        expect(reply.headers.get('X-Served-By')).toBe(EXPECTED_SERVED_BY);
      }
    }
  });

  it('a wrong method on a known route is 405 code 0 with Allow, whatever the token', async () => {
    const w = await world();
    for (const token of w.tokens) {
      const reply = await w.client.request('PUT', `/api/v10/lobbies/${w.lobby.id}/messages`, { token });
      expect(reply.status).toBe(405);
      expect(reply.body).toEqual({ message: '405: Method Not Allowed', code: 0 });
      expect(reply.headers.get('Allow')).toBe('GET, POST');
    }
  });

  it('a known route keeps 401 code 0 without a token or with an unknown one', async () => {
    const w = await world();
    for (const token of [undefined, 'Bot nope', 'Bearer nope']) {
      for (const path of ['/api/v10/users/@me', `/api/v10/lobbies/${w.lobby.id}/messages`, '/.proxy/api/rpc/session']) {
        const reply = await w.client.get(path, token);
        expect(reply.status, path).toBe(401);
        expect(reply.body).toEqual(UNAUTHORIZED);
      }
    }
    expect((await w.client.get(`/api/v10/lobbies/${w.lobby.id}/messages`, w.aliceAuth)).status).toBe(200);
  });

  it('every route the app registers is known to the check, with its method (none is answered as unknown)', async () => {
    const client = await createTestClient();
    const app = buildApp(client.app.ctx);
    const table = routeTable(app);
    const routes = app.routes.filter((r) => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) {
      const path = route.path.replace(/:[A-Za-z0-9_]+/g, '123').replace(/\*$/, 'x');
      expect(table.allows(route.method, path), `${route.method} ${route.path}`).toBe(true);
    }
    expect(table.allows('GET', '/api/v10/lobbies/123/nothing')).toBe(false);
    expect(table.methodsFor('/api/v10/lobbies/123/messages')).toEqual(['GET', 'POST']);
  });
});

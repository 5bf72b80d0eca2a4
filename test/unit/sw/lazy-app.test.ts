// @vitest-environment node
/**
 * The service worker's app starts with the lobbies' routes and loads the others on first use
 * (`sw/lazy-app.ts`): it answers every request as the whole app does, a lobby's read never
 * loads the other routes, and both apps share one edge.
 */
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { mountPlatformRoutes, platformHasRoute, platformRouteList } from '../../../sw/app';
import { createLazyPlatformApp, mountStartRoutes, type RouteScript } from '../../../sw/lazy-app';
import { cdnApp } from '../../../sw/routes/cdn';
import type { AppEnv } from '../../../sw/http';
import { openTestStorage } from '../store/test-storage';

let dbCounter = 0;

/** The routes' script as the build makes it, counting how often it is loaded. */
function countingScript(): RouteScript & { loads: number } {
  const script = {
    loads: 0,
    hasRoute: platformHasRoute,
    load: async () => {
      script.loads++;
      return { mountPlatformRoutes, cdnApp };
    },
  };
  return script;
}

async function lazyApp(dbName = `platformpp-lazy-${process.pid}-${++dbCounter}`) {
  const script = countingScript();
  const db = await openTestStorage(dbName);
  const app = await createLazyPlatformApp({ db }, script);
  const call = async (method: string, path: string, body?: unknown, auth?: string) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (auth) headers.Authorization = auth;
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    const response = await app.fetch(new Request(`http://platform.test${path}`, init));
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };
  return { app, script, call, dbName };
}

/** A concrete path for a route's pattern (each parameter a snowflake-like value). */
const samplePath = (path: string) => path.replace(/:[A-Za-z0-9_]+/g, '1234567890');

describe("the service worker's app starts with the lobbies' routes (sw/lazy-app.ts)", () => {
  it("a path the start's routes answer is answered by the same route in the whole app (no other route comes first)", () => {
    const start = new Hono<AppEnv>();
    mountStartRoutes(start, () => Promise.reject(new Error('unused')));
    const whole = platformRouteList(false);
    const startRoutes = start.routes.filter((r) => r.method !== 'ALL');
    expect(startRoutes.length).toBeGreaterThan(0);
    for (const route of startRoutes) {
      const path = samplePath(route.path);
      const first = whole.find((r) => r.method === route.method && new RegExp(`^${samplePattern(r.path)}$`).test(path));
      expect(first, `${route.method} ${route.path}`).toEqual({ method: route.method, path: route.path });
    }
  });

  it("a lobby's messages are written and read without loading the other routes", async () => {
    // The sandbox's routes are the other script's: set up through them, then start again.
    const setup = await lazyApp();
    const created = (await setup.call('POST', '/sandbox/applications', { name: 'Game' })).body;
    const user = (await setup.call('POST', '/sandbox/users', { username: 'reader' })).body.user;
    const token = await setup.call('POST', '/sandbox/tokens', {
      application_id: created.application.id,
      user_id: user.id,
      scopes: 'openid sdk.social_layer',
    });
    expect(setup.script.loads).toBe(1);
    const auth = `Bearer ${token.body.access_token}`;
    const { script, call } = await lazyApp(setup.dbName);
    const lobby = (await call('PUT', '/api/v10/lobbies', { secret: 'start' }, auth)).body;
    expect((await call('POST', `/api/v10/lobbies/${lobby.id}/messages`, { content: 'hi' }, auth)).status).toBe(201);
    const read = await call('GET', `/api/v10/lobbies/${lobby.id}/messages?limit=200`, undefined, auth);
    expect(read.status).toBe(200);
    expect(read.headers.get('X-Served-By')).toBe('platformpp-sw');
    expect(read.body.map((m: { content: string }) => m.content)).toEqual(['hi']);
    expect((await call('GET', '/api/v10/lobbies/1234567890/messages')).status).toBe(401);
    expect(script.loads).toBe(0);
  });

  it('a request for any other route loads the routes once, and the app answers every route from then on', async () => {
    const { script, call } = await lazyApp();
    const created = await call('POST', '/sandbox/applications', { name: 'Game' });
    expect(created.status).toBe(201);
    const user = (await call('POST', '/sandbox/users', { username: 'reader' })).body.user;
    const token = await call('POST', '/sandbox/tokens', {
      application_id: created.body.application.id,
      user_id: user.id,
      scopes: 'openid sdk.social_layer',
    });
    const auth = `Bearer ${token.body.access_token}`;
    const lobby = (await call('PUT', '/api/v10/lobbies', { secret: 'lazy' }, auth)).body;
    expect((await call('POST', `/api/v10/lobbies/${lobby.id}/messages`, { content: 'hi' }, auth)).status).toBe(201);
    const read = await call('GET', `/api/v10/lobbies/${lobby.id}/messages`, undefined, auth);
    expect(read.body.map((m: { content: string }) => m.content)).toEqual(['hi']);
    expect((await call('GET', '/api/v10/users/@me', undefined, auth)).body.username).toBe('reader');
    expect(script.loads).toBe(1);
  });

  it('an unknown route is 404 and a wrong method 405 as in the whole app', async () => {
    const { call } = await lazyApp();
    expect((await call('GET', '/api/v10/nothing')).body).toEqual({ message: '404: Not Found', code: 0 });
    const wrong = await call('PUT', '/api/v10/lobbies/1234567890/messages');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('Allow')).toBe('GET, POST');
  });
});

/** The pattern of a route's path as the route table builds it. */
function samplePattern(path: string): string {
  return path
    .replace(/[.*+?^${}()|[\]\\]/g, (ch) => (ch === '*' ? '.*' : `\\${ch}`))
    .replace(/:[A-Za-z0-9_]+/g, '[^/]+');
}

/**
 * A platform app on fake-indexeddb for unit tests, with helpers that call it as a client
 * would: `await api.post('/sandbox/users', {...})`.
 *
 * One suite, two hosts: with `PLATFORMPP_HOST=server` (the `server-host` test project) the same
 * helpers send real HTTP requests to the server (workerd through Miniflare), each test client
 * to a sandbox of its own; the app's internals (`app`) are then out of reach, so only tests
 * that speak HTTP alone run there.
 */
import { createPlatformApp, type PlatformApp } from '../../sw/app';
import type { Announcement } from '../../src/platform/core/announcements';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { inject } from 'vitest';
import { openTestStorage } from './store/test-storage';
import { freshSandbox } from '../server/server-harness';

/** Which host the HTTP suite runs against. */
export const TEST_HOST: 'browser' | 'server' = process.env.PLATFORMPP_HOST === 'server' ? 'server' : 'browser';

/** What `X-Served-By` says on the host under test. */
export const EXPECTED_SERVED_BY = TEST_HOST === 'server' ? 'platformpp-server' : 'platformpp-sw';

/** The app's internals, which a test on the server host cannot reach. */
const unreachableApp = new Proxy({} as PlatformApp, {
  get(_target, name) {
    throw new Error(`app.${String(name)} is not reachable on the server host: the test must speak HTTP only.`);
  },
});

let dbCounter = 0;

/** A JSON response read once: status, headers and body. */
export interface JsonReply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A client of the app under test. */
export interface TestClient {
  app: PlatformApp;
  /** The name its storage was opened under (`openTestStorage`). */
  dbName: string;
  announcements: Announcement[];
  request<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; raw?: BodyInit; token?: string; headers?: Record<string, string> },
  ): Promise<JsonReply<T>>;
  get<T = any>(path: string, token?: string): Promise<JsonReply<T>>;
  post<T = any>(path: string, body?: unknown, token?: string): Promise<JsonReply<T>>;
  put<T = any>(path: string, body?: unknown, token?: string): Promise<JsonReply<T>>;
  patch<T = any>(path: string, body?: unknown, token?: string): Promise<JsonReply<T>>;
  delete<T = any>(path: string, token?: string): Promise<JsonReply<T>>;
}

/**
 * A fresh app over its own database. `token` is sent as the Authorization header verbatim
 * (`Bot …` / `Bearer …`). `webhookFetch` stands in for the network webhook deliveries go to.
 */
export async function createTestClient(options: { webhookFetch?: FetchLike } = {}): Promise<TestClient> {
  if (TEST_HOST === 'server') return serverTestClient();
  const announcements: Announcement[] = [];
  const dbName = `platformpp-test-${process.pid}-${++dbCounter}`;
  const app = await createPlatformApp({
    db: await openTestStorage(dbName),
    broadcast: (m) => announcements.push(m),
    webhookFetch: options.webhookFetch,
  });
  return clientOver(app, dbName, announcements, 'http://platform.test', (r) => app.fetch(r));
}

/** A test client whose requests go to a fresh sandbox of the shared test server. */
function serverTestClient(): TestClient {
  const base = freshSandbox(inject('sharedServerUrl'));
  return clientOver(unreachableApp, base, [], base, (r) => fetch(r));
}

/** The helpers over a way to answer requests sent to `origin`. */
function clientOver(
  app: PlatformApp,
  dbName: string,
  announcements: Announcement[],
  origin: string,
  answer: (request: Request) => Promise<Response>,
): TestClient {
  const request: TestClient['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = options.token;
    let body: BodyInit | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await answer(new Request(`${origin}${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON (CSV, HTML): the text itself.
    }
    return { status: response.status, headers: response.headers, body: parsed as any };
  };
  return {
    app,
    dbName,
    announcements,
    request,
    get: (path, token) => request('GET', path, { token }),
    post: (path, body, token) => request('POST', path, { body, token }),
    put: (path, body, token) => request('PUT', path, { body, token }),
    patch: (path, body, token) => request('PATCH', path, { body, token }),
    delete: (path, token) => request('DELETE', path, { token }),
  };
}

/** A user, an application with its bot, and a Bearer token for the user with `scopes`. */
export async function createWorld(client: TestClient, scopes = 'openid sdk.social_layer') {
  const alice = (await client.post('/sandbox/users', { username: 'alice' })).body.user;
  const bob = (await client.post('/sandbox/users', { username: 'bob' })).body.user;
  const app = (await client.post('/sandbox/applications', { name: 'Game', owner_id: alice.id })).body;
  const aliceToken = (
    await client.post('/sandbox/tokens', { application_id: app.application.id, user_id: alice.id, scopes })
  ).body;
  const bobToken = (
    await client.post('/sandbox/tokens', { application_id: app.application.id, user_id: bob.id, scopes })
  ).body;
  return {
    alice,
    bob,
    application: app.application,
    bot: app.bot,
    botAuth: `Bot ${app.bot_token}`,
    clientSecret: app.client_secret as string,
    aliceAuth: `Bearer ${aliceToken.access_token}`,
    bobAuth: `Bearer ${bobToken.access_token}`,
    aliceTokens: aliceToken,
    bobTokens: bobToken,
  };
}

/**
 * A platform app on fake-indexeddb for unit tests, with helpers that call it as a client
 * would: `await api.post('/sandbox/users', {...})`.
 */
import { createPlatformApp, type PlatformApp } from '../../sw/app';
import type { Announcement } from '../../src/platform/core/announcements';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { openTestStorage } from './store/test-storage';

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
  const announcements: Announcement[] = [];
  const dbName = `platformpp-test-${process.pid}-${++dbCounter}`;
  const app = await createPlatformApp({
    db: await openTestStorage(dbName),
    broadcast: (m) => announcements.push(m),
    webhookFetch: options.webhookFetch,
  });
  const request: TestClient['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = options.token;
    let body: BodyInit | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await app.fetch(new Request(`http://platform.test${path}`, { method, headers, body }));
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

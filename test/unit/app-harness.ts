/**
 * A platform app on fake-indexeddb for unit tests, with helpers that call it as a client
 * would: `await api.post('/sandbox/users', {...})`.
 *
 * One suite, two hosts: with `PLATFORMPP_HOST=server` (the `server-host` test project) the same
 * helpers send real HTTP requests to the server (workerd through Miniflare), each test client
 * to a sandbox of its own. What a test reads or changes in the store goes through `db`, which
 * on the server is the sandbox's own storage reached through the test server's hooks
 * (`server/test-hooks.ts`); `fetch` answers a URL the platform handed out; `settled()` waits
 * for the gateway's dispatches and the webhook outbox. The app's other internals (`app`) are in
 * reach on the browser host only.
 *
 * Every answer a test receives through `request` (and `get`, `post`...) is checked against the
 * platform's official API description (`wire-schema/response-check.ts`): an answer that does not
 * match fails the test that received it, naming the path, the status and each wrong field.
 */
import { createPlatformApp, type PlatformApp } from '../../sw/app';
import type { Announcement } from '../../src/platform/core/announcements';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { inject, it } from 'vitest';
import { openTestStorage } from './store/test-storage';
import { freshSandbox } from '../server/server-harness';
import { type HookedStorage, putAll } from '../../server/test-hooks';
import type { PlatformStorage, PlatformStoreName } from '../../src/store/schema';
import { decodeValue, encodeValue } from '../../src/store/sqlite/value-codec';
import { checkAnswer } from './wire-schema/response-check';

/** Which host the HTTP suite runs against. */
export const TEST_HOST: 'browser' | 'server' = process.env.PLATFORMPP_HOST === 'server' ? 'server' : 'browser';

/** What `X-Served-By` says on the host under test. */
export const EXPECTED_SERVED_BY = TEST_HOST === 'server' ? 'platformpp-server' : 'platformpp-sw';

/** True when the suite runs against the server (`PLATFORMPP_HOST=server`). */
export const ON_SERVER = TEST_HOST === 'server';

/**
 * `it` for a test that calls the platform's code in this process (a domain operation, the read
 * cache, the clock object, a console spy): skipped on the server host, where the platform runs
 * in workerd and only its API and store are in reach.
 */
export const itInProcess = it.skipIf(ON_SERVER);

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

/** The store as a test reads and changes it: the platform storage's calls, on either host. */
export type TestStore = HookedStorage;

/** A client of the app under test. */
export interface TestClient {
  /** The app's internals (browser host only; on the server every use throws, naming the test's mistake). */
  app: PlatformApp;
  /** The platform's store, read and written as the app's own context does. */
  db: TestStore;
  /** Where the platform is (`http://platform.test`, or the server's sandbox URL): the URLs it hands out start with it. */
  origin: string;
  /** Answers a request to a URL the platform handed out (an attachment's), as a client fetching it. */
  fetch(request: Request | string): Promise<Response>;
  /** Resolves once the gateway sent what was committed so far and the webhook outbox is idle. */
  settled(): Promise<void>;
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
  const answer = (r: Request) => app.fetch(r);
  const db = storeOver(app.ctx.db);
  return clientOver(app, db, dbName, announcements, 'http://platform.test', answer, () => app.webhooks.settled());
}

/** The app's own storage as a test store (its calls bound to it), with `putAll`. */
function storeOver(storage: PlatformStorage): TestStore {
  const extra = { putAll: (store: PlatformStoreName, records: unknown[]) => putAll(storage, store, records) };
  return new Proxy(storage, {
    get(target, name) {
      if (name === 'putAll') return extra.putAll;
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as TestStore;
}

/** A test client whose requests go to a fresh sandbox of the shared test server. */
function serverTestClient(): TestClient {
  const base = freshSandbox(inject('sharedServerUrl'));
  const settle = async () => void (await hook(base, 'settle'));
  return clientOver(unreachableApp, serverStore(base), base, [], base, (r) => fetch(r), settle);
}

/** A request to one of the test server's hooks of the sandbox at `base`. */
async function hook(base: string, name: string, body?: string): Promise<Response> {
  const response = await fetch(`${base}/__platformpp-test/${name}`, { method: 'POST', body });
  if (response.status === 404 || response.status === 405)
    throw new Error(`the test server has no ${name} hook: start it with startServer({ testHooks: true })`);
  return response;
}

/** The store of the sandbox at `base`, each call sent to the server's store hook. */
function serverStore(base: string): TestStore {
  const call =
    (method: string) =>
    async (...args: unknown[]) => {
      const response = await hook(base, 'store', await encodeValue({ method, args }));
      const answer = (await decodeValue(await response.text())) as {
        result?: unknown;
        error?: { name: string; message: string };
      };
      if (answer.error) throw Object.assign(new Error(answer.error.message), { name: answer.error.name });
      return answer.result;
    };
  const methods = [
    ...['get', 'getAll', 'getKey', 'getAllKeys', 'count', 'latestSeq'],
    ...['getFromIndex', 'getAllFromIndex', 'getKeyFromIndex', 'getAllKeysFromIndex', 'countFromIndex'],
    ...['put', 'add', 'delete', 'putAll'],
  ];
  return Object.fromEntries(methods.map((m) => [m, call(m)])) as unknown as TestStore;
}

/** The helpers over a way to answer requests sent to `origin`. */
function clientOver(
  app: PlatformApp,
  db: TestStore,
  dbName: string,
  announcements: Announcement[],
  origin: string,
  answer: (request: Request) => Promise<Response>,
  settled: () => Promise<void>,
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
    const json = (response.headers.get('Content-Type') ?? '').includes('json') && parsed !== text;
    const mismatch = checkAnswer(method, path, response.status, parsed, json);
    if (mismatch)
      throw new Error(
        `${method} ${path} answered ${mismatch.status}, which does not match the official description of ` +
          `${mismatch.operation}:\n  ${mismatch.issues.join('\n  ')}`,
      );
    return { status: response.status, headers: response.headers, body: parsed as any };
  };
  return {
    app,
    db,
    origin,
    fetch: (input) => answer(typeof input === 'string' ? new Request(input) : input),
    settled,
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

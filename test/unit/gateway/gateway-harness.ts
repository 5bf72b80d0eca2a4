/**
 * A gateway over the same fake-indexeddb database as a test app, as the shared worker runs
 * next to the service worker: announcements are forwarded on `flush()` (a BroadcastChannel is
 * asynchronous too), timers are manual, and fake clients connect through a transport that
 * records what they receive.
 *
 * One suite, two hosts: on the server host (`PLATFORMPP_HOST=server`) the clients are real
 * WebSockets to a fresh sandbox of the test server (`./server-gateway-clients.ts`), and
 * `flush()` waits until the server sent every dispatch committed so far and each client
 * received it. The gateway object, its context and its timers are then in another process:
 * tests that use them are `itInProcess`.
 */
import { Gateway, type GatewayTimers } from '../../../src/gateway/gateway';
import type { GatewayConnection } from '../../../src/gateway/connection';
import { GATEWAY_OPCODES, type GatewayPayload } from '../../../src/gateway/protocol';
import { createPlatformContext } from '../../../src/platform/core/context';
import { SNOWFLAKE_WORKERS } from '../../../src/platform/core/snowflake';
import { createTestClient, createWorld, ON_SERVER, type TestClient } from '../app-harness';
import { openTestStorage } from '../store/test-storage';
import { serverGatewayClients, unreachable } from './server-gateway-clients';

/** Timers that only move when the test says so. */
export class ManualTimers implements GatewayTimers {
  #now = 0;
  #next = 1;
  readonly #pending = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#pending.set(id, { at: this.#now + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  /** Moves time forward, running every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = [...this.#pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#pending.delete(due[0]);
      this.#now = due[1].at;
      due[1].callback();
    }
    this.#now = until;
  }
}

/** A client connected to the gateway: what it sent, received, and how it was closed. */
export interface FakeClient {
  connection: GatewayConnection;
  received: GatewayPayload<any>[];
  closed: { code: number; reason: string } | null;
  send(payload: unknown): void;
  sendRaw(text: string): void;
  /** The client closes the connection (a code other than 1000/1001 keeps the session). */
  disconnect(code?: number): void;
  /** Resolves with the first received payload (from index `from`) that matches. */
  waitFor(match: (p: GatewayPayload<any>) => boolean, from?: number): Promise<GatewayPayload<any>>;
  waitForDispatch(t: string, from?: number): Promise<GatewayPayload<any>>;
  waitForClose(): Promise<{ code: number; reason: string }>;
  dispatches(t?: string): GatewayPayload<any>[];
}

/** The harness: an app, a world, a gateway, and helpers. */
export type GatewayHarness = Awaited<ReturnType<typeof createGatewayHarness>>;

/**
 * An app with a world (alice, bob, an application with a bot) and a gateway next to it.
 * @example const h = await createGatewayHarness(); const bot = await h.identify(h.world.botAuth, { intents: 1 });
 */
export async function createGatewayHarness() {
  const api: TestClient = await createTestClient();
  const world = await createWorld(api);
  if (ON_SERVER) return serverGatewayHarness(api, world);
  const ctx = await createPlatformContext({
    db: await openTestStorage(api.dbName),
    workerId: SNOWFLAKE_WORKERS.hub,
  });
  const timers = new ManualTimers();
  const errors: string[] = [];
  const gateway = new Gateway(ctx, timers, (line) => errors.push(line));
  let forwarded = 0;

  /** Forwards the app's announcements to the gateway and waits for their dispatches. */
  async function flush(): Promise<void> {
    while (forwarded < api.announcements.length) await gateway.announce(api.announcements[forwarded++]);
  }

  /** Connects a fake client to `on`; `owner` is the page it says it comes from. */
  function connect(url = '/gateway?v=10&encoding=json', on: Gateway = gateway, owner?: string): FakeClient {
    const client: FakeClient = {
      connection: undefined as unknown as GatewayConnection,
      received: [],
      closed: null,
      send: (payload) => client.connection.receive(JSON.stringify(payload)),
      sendRaw: (text) => client.connection.receive(text),
      disconnect: (code = 4000) => client.connection.clientClosed(code),
      async waitFor(match, from = 0) {
        for (let i = 0; i < 400; i++) {
          await flush();
          const hit = client.received.slice(from).find(match);
          if (hit) return hit;
          if (client.closed) throw new Error(`closed ${client.closed.code} ${client.closed.reason} while waiting`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        throw new Error(`timed out; received: ${client.received.map((p) => p.t ?? p.op).join(', ')}`);
      },
      waitForDispatch: (t, from) => client.waitFor((p) => p.op === 0 && p.t === t, from),
      async waitForClose() {
        for (let i = 0; i < 400 && !client.closed; i++) await new Promise((resolve) => setTimeout(resolve, 5));
        if (!client.closed) throw new Error('not closed');
        return client.closed;
      },
      dispatches: (t) =>
        client.received.filter((p) => p.op === GATEWAY_OPCODES.DISPATCH && (t === undefined || p.t === t)),
    };
    client.connection = on.connect(
      url,
      {
        send: (text) => client.received.push(JSON.parse(text)),
        close: (code, reason) => (client.closed = { code, reason }),
      },
      { owner },
    );
    return client;
  }

  /** Connects and identifies; resolves once READY arrived. */
  async function identify(
    token: string,
    d: Record<string, unknown> = {},
    owner?: string,
  ): Promise<FakeClient & { ready: any }> {
    const client = connect(undefined, gateway, owner);
    client.send({ op: 2, d: { token, properties: { os: 'linux', browser: 'test', device: 'test' }, ...d } });
    const ready = await client.waitForDispatch('READY');
    return Object.assign(client, { ready: ready.d });
  }

  const guildWithBot = (options: { bob?: boolean } = {}) => createGuildWithBot(api, world, options);

  /** Sets application fields directly (flags, approvals, settings the sandbox has no route for). */
  async function updateApplication(changes: Record<string, unknown>): Promise<void> {
    await changeApplication(api, world, changes);
  }

  /** A second gateway on the same database, as after the shared worker restarted. */
  async function restartedGateway(): Promise<Gateway> {
    const fresh = await createPlatformContext({
      db: await openTestStorage(api.dbName),
      workerId: SNOWFLAKE_WORKERS.hub,
    });
    return new Gateway(fresh, timers, (line) => errors.push(line));
  }

  return {
    api,
    world,
    db: api.db,
    /** Resolves once the gateway dispatched everything committed to the log (and wrote what that changes). */
    pump: () => gateway.pump(),
    /** READY's `resume_gateway_url` on this host. */
    resumeGatewayUrl: '/gateway',
    ctx,
    gateway,
    timers,
    errors,
    flush,
    connect,
    identify,
    guildWithBot,
    updateApplication,
    restartedGateway,
  };
}

/** A guild owned by alice, with the bot (and optionally bob) as members. */
async function createGuildWithBot(api: TestClient, world: World, options: { bob?: boolean } = {}) {
  const created = (await api.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  await api.put(`/sandbox/guilds/${created.guild.id}/members/${world.bot.id}`, {});
  if (options.bob) await api.put(`/sandbox/guilds/${created.guild.id}/members/${world.bob.id}`, {});
  return created as { guild: any; roles: any[]; channels: any[] };
}

/** Sets application fields directly in the store (flags, approvals, settings the sandbox has no route for). */
async function changeApplication(api: TestClient, world: World, changes: Record<string, unknown>): Promise<void> {
  const app = await api.db.get('applications', world.application.id);
  await api.db.put('applications', { ...app!, ...changes });
}

type World = Awaited<ReturnType<typeof createWorld>>;

/**
 * The harness on the server host: the same helpers over real WebSockets to the sandbox of
 * `api`. What lives in the server's process (the gateway, its context and timers) throws when
 * used, naming the test's mistake.
 */
function serverGatewayHarness(api: TestClient, world: World) {
  const clients = serverGatewayClients(api.origin);
  return {
    api,
    world,
    db: api.db,
    resumeGatewayUrl: `${api.origin.replace(/^http/, 'ws')}/gateway`,
    ctx: unreachable<Awaited<ReturnType<typeof createPlatformContext>>>('ctx'),
    gateway: unreachable<Gateway>('gateway'),
    timers: unreachable<ManualTimers>('timers'),
    errors: [] as string[],
    flush: () => clients.flush(() => api.settled()),
    pump: () => api.settled(),
    connect: (url = '/gateway?v=10&encoding=json', on?: Gateway, owner?: string): FakeClient => {
      if (on || owner) throw new Error('a second gateway object or a page owner exists in-process only: itInProcess');
      return clients.connect(url);
    },
    identify: async (token: string, d: Record<string, unknown> = {}): Promise<FakeClient & { ready: any }> => {
      const client = clients.connect('/gateway?v=10&encoding=json');
      client.send({ op: 2, d: { token, properties: { os: 'linux', browser: 'test', device: 'test' }, ...d } });
      const ready = await client.waitForDispatch('READY');
      return Object.assign(client, { ready: ready.d });
    },
    guildWithBot: (options: { bob?: boolean } = {}) => createGuildWithBot(api, world, options),
    updateApplication: (changes: Record<string, unknown>) => changeApplication(api, world, changes),
    restartedGateway: (): Promise<Gateway> => {
      throw new Error('a restarted gateway object exists in-process only: itInProcess');
    },
  };
}

/**
 * The game SDK `Client` against the real platform in one process: its `fetch` is the service
 * worker's HTTP app (on fake-indexeddb), its sockets reach the real gateway of the gateway
 * harness through a WebSocket-like adapter, and every announcement of the app is forwarded to
 * the gateway before a request resolves, so events are delivered as they are in a browser.
 */
import type { GatewayConnection } from '../../../src/gateway/connection';
import type { Gateway } from '../../../src/gateway/gateway';
import { Client } from '../../../src/sdk/client';
import type { ClientOptions } from '../../../src/sdk/client-core';
import type { WebSocketLike } from '../../../src/sdk/socket';
import type { ConsentRequest } from '../../../src/sdk/types';
import { createGatewayHarness } from '../gateway/gateway-harness';

/** The origin the SDK's requests are made against. */
export const BASE_URL = 'http://platform.test';

type Listener = (event: any) => void;

/** A socket to the in-process gateway with the WebSocket interface. */
export class HarnessSocket implements WebSocketLike {
  readyState = 0;
  readonly sent: any[] = [];
  /** What the gateway sent, parsed, in order. */
  readonly received: any[] = [];
  #connection: GatewayConnection | null = null;
  readonly #listeners = new Map<string, Listener[]>();

  constructor(gateway: Gateway, url: string) {
    // Like a WebSocket: nothing happens before the caller had a chance to add listeners.
    setTimeout(() => {
      if (this.readyState !== 0) return;
      this.readyState = 1;
      this.#emit('open', {});
      this.#connection = gateway.connect(url, {
        send: (text) => {
          this.received.push(JSON.parse(text));
          setTimeout(() => this.readyState === 1 && this.#emit('message', { data: text }));
        },
        close: (code, reason) => this.#closed(code, reason),
      });
    });
  }

  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  send(text: string): void {
    this.sent.push(JSON.parse(text));
    this.#connection?.receive(text);
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState >= 2) return;
    this.readyState = 2;
    this.#connection?.clientClosed(code);
    setTimeout(() => this.#closed(code, reason));
  }

  /** The gateway side drops the connection (the session stays for Resume unless `code` ends it). */
  serverClose(code = 4000, reason = 'Dropped by the test.'): void {
    this.#connection?.closeWith(code, reason);
  }

  #closed(code: number, reason: string): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.#emit('close', { code, reason });
  }

  #emit(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

/** The harness: the gateway harness, and clients of the SDK made against it. */
export type SdkHarness = Awaited<ReturnType<typeof createSdkHarness>>;

/**
 * A platform (app + gateway) with alice, bob and a game, and a maker of SDK clients.
 * @example const h = await createSdkHarness(); const client = h.client({ userId: h.world.alice.id });
 */
export async function createSdkHarness() {
  const gh = await createGatewayHarness();
  const sockets: HarnessSocket[] = [];
  const consents: ConsentRequest[] = [];
  const requests: Request[] = [];
  const clients: Client[] = [];

  /** The app as the SDK's fetch: announcements reach the gateway before the answer does. */
  async function fetch(request: Request): Promise<Response> {
    requests.push(request.clone());
    const response = await gh.api.app.fetch(request);
    await gh.flush();
    return response;
  }

  function client(options: ClientOptions = {}): Client {
    const made = new Client({
      baseUrl: BASE_URL,
      fetch,
      applicationId: gh.world.application.id,
      socketFactory: (url) => {
        const socket = new HarnessSocket(gh.gateway, url);
        sockets.push(socket);
        return socket;
      },
      consent: async (request) => {
        consents.push(request);
        return true;
      },
      reconnectDelayMs: () => 0,
      ...options,
    });
    clients.push(made);
    return made;
  }

  /** A Ready client for `user` with a sandbox token of `scopes`. */
  async function readyClient(user: { id: string }, scopes = 'openid sdk.social_layer', options: ClientOptions = {}) {
    const tokens = (
      await gh.api.post('/sandbox/tokens', { application_id: gh.world.application.id, user_id: user.id, scopes })
    ).body;
    const made = client({ userId: user.id, ...options });
    await made.updateToken(1, tokens.access_token);
    await made.connect();
    return { client: made, tokens };
  }

  /** Waits until `check` holds, forwarding announcements meanwhile. */
  async function until(check: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 400; i++) {
      await gh.flush();
      if (check()) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  /** Destroys every client made (the test's last step). */
  async function close(): Promise<void> {
    await Promise.all(clients.map((c) => c.destroy()));
  }

  return { ...gh, sockets, consents, requests, fetch, client, readyClient, until, close };
}

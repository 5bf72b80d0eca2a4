/**
 * A gateway connection as a client keeps one: the platform's one gateway loop
 * (`src/gateway/client.ts`: Hello, Identify, heartbeats, reconnecting after a drop) over
 * `GatewaySocket`, which has the WebSocket interface, so this is the code a client would write
 * for a WebSocket gateway. The demo identifies afresh on every connection (its state is rebuilt
 * from READY and the history reads that follow it) and renews a user's token once when the
 * gateway refuses it. The demo shell and the sample activity both use it.
 */
import { GATEWAY_CLIENT_URL, GatewayClient, type GatewayClientStateChange } from '../../src/gateway/client';
import { GATEWAY_CLOSE_CODES, type GatewayDispatch, type GatewayPayload } from '../../src/gateway/protocol';
import { GatewaySocket } from '../../src/sockets/gateway-socket';

/** The gateway URL every demo session connects to. */
export const DEMO_GATEWAY_URL = GATEWAY_CLIENT_URL;

/** How long to wait before connecting again after the connection dropped. */
const RECONNECT_DELAY_MS = 1000;

/** Where a session is: connecting, identified (READY received), or stopped for good. */
export type GatewaySessionStatus = 'connecting' | 'ready' | 'closed';

/** What a session needs. */
export interface GatewaySessionOptions {
  /** Identify's token: `Bearer <access_token>` for a user, `Bot <token>` for a bot (or a function giving the current one). Never logged. */
  token: string | (() => string);
  /**
   * Called when the gateway refused the token (4004), before one more try: a user's token dated
   * by the sandbox clock expires when the clock moves on, and the caller may get a new one.
   */
  renew?: () => Promise<void>;
  intents: number;
  /** Identify's `capabilities` (1 << 15 opts a bot in to channel obfuscation). */
  capabilities?: number;
  /** Every dispatch, in order, its payload typed by its name. */
  onDispatch(dispatch: GatewayDispatch, seq: number | null): void;
  /** Every payload received (dispatches included), for an event viewer. */
  onPayload?(payload: GatewayPayload<unknown>): void;
  /** Every payload sent (Identify with its token, heartbeats), for an event viewer that redacts. */
  onSent?(payload: { op: number; d: unknown }): void;
  /** Status changes; `reason` says why a session closed. */
  onStatus?(status: GatewaySessionStatus, reason?: string): void;
}

/** The page's timers, read when called. */
const timers = {
  setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A running gateway session.
 * @example
 * const session = new GatewaySession({ token: `Bearer ${token}`, intents: 1, onDispatch: (dispatch) => apply(dispatch) });
 * session.start();
 * // later
 * session.stop();
 */
export class GatewaySession {
  readonly #client: GatewayClient;
  #stopped = false;
  /** Whether the token was renewed since the last READY (so a second 4004 is final). */
  #renewed = false;

  constructor(private readonly options: GatewaySessionOptions) {
    this.#client = new GatewayClient({
      openSocket: (url) => new GatewaySocket(url),
      timers,
      url: DEMO_GATEWAY_URL,
      resume: false,
      reconnectDelayMs: () => RECONNECT_DELAY_MS,
      identify: () => ({
        token: typeof options.token === 'function' ? options.token() : options.token,
        intents: options.intents,
        ...(options.capabilities ? { capabilities: options.capabilities } : {}),
        properties: { os: 'browser', browser: 'platformpp-demo', device: 'platformpp-demo' },
      }),
      listener: {
        dispatch: (dispatch, seq) => {
          if (dispatch.t === 'READY') this.#renewed = false;
          options.onDispatch(dispatch, seq);
        },
        received: (payload) => options.onPayload?.(payload),
        sent: (payload) => options.onSent?.(payload),
        state: (change) => this.#follow(change),
      },
    });
  }

  /** Connects (once). */
  start(): void {
    if (!this.#stopped) this.#client.start();
  }

  /** Closes the connection and does not reconnect. */
  stop(): void {
    this.#stopped = true;
    void this.#client.stop('The client stopped');
  }

  /** Sends a payload (e.g. Request Guild Members) when the connection is open. */
  send(op: number, d: unknown): boolean {
    return this.#client.send(op, d);
  }

  #follow(change: GatewayClientStateChange): void {
    const status = this.options.onStatus;
    if (change.state === 'connecting' || change.state === 'reconnecting') return status?.('connecting');
    if (change.state === 'ready') return status?.('ready');
    if (change.state !== 'closed') return;
    if (change.code === GATEWAY_CLOSE_CODES.AUTHENTICATION_FAILED && this.options.renew && !this.#renewed) {
      this.#renewed = true;
      status?.('connecting');
      this.options.renew().then(
        () => !this.#stopped && this.#client.start(),
        (error) =>
          status?.('closed', `the token could not be renewed: ${error instanceof Error ? error.message : error}`),
      );
      return;
    }
    status?.('closed', `the gateway closed the session (${change.code}${change.reason ? `: ${change.reason}` : ''})`);
  }
}

/**
 * A gateway connection as a client keeps one: Hello, Identify, heartbeats, and a fresh
 * Identify after the connection dropped. It speaks to the shared-worker gateway through
 * `GatewaySocket`, which has the WebSocket interface, so this is the code a client would write
 * for a WebSocket gateway. The demo shell and the sample activity both use it.
 */
import { GatewaySocket } from '../../src/sockets/gateway-socket';
import {
  FATAL_CLOSE_CODES,
  GATEWAY_CLOSE_CODES,
  GATEWAY_OPCODES as OP,
  RESUME_CLOSE_CODE,
  type GatewayPayload,
} from '../../src/gateway/protocol';

/** The gateway URL every demo session connects to. */
export const DEMO_GATEWAY_URL = '/gateway?v=10&encoding=json';

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
  /** Every dispatch, in order. */
  onDispatch(type: string, data: any, seq: number | null): void;
  /** Every payload received (dispatches included), for an event viewer. */
  onPayload?(payload: GatewayPayload<unknown>): void;
  /** Every payload sent (Identify with its token, heartbeats), for an event viewer that redacts. */
  onSent?(payload: { op: number; d: unknown }): void;
  /** Status changes; `reason` says why a session closed. */
  onStatus?(status: GatewaySessionStatus, reason?: string): void;
}

/**
 * A running gateway session.
 * @example
 * const session = new GatewaySession({ token: `Bearer ${token}`, intents: 1, onDispatch: (t, d) => apply(t, d) });
 * session.start();
 * // later
 * session.stop();
 */
export class GatewaySession {
  #socket: GatewaySocket | null = null;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #seq: number | null = null;
  #stopped = false;
  /** Whether the token was renewed since the last READY (so a second 4004 is final). */
  #renewed = false;

  constructor(private readonly options: GatewaySessionOptions) {}

  /** Connects (once). */
  start(): void {
    if (!this.#socket && !this.#stopped) this.#connect();
  }

  /** Closes the connection and does not reconnect. */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#retry);
    this.#socket?.close(1000, 'The client stopped');
    this.#socket = null;
  }

  /** Sends a payload (e.g. Request Guild Members) when the connection is open. */
  send(op: number, d: unknown): boolean {
    if (this.#socket?.readyState !== GatewaySocket.OPEN) return false;
    this.#send(this.#socket, op, d);
    return true;
  }

  #send(socket: GatewaySocket, op: number, d: unknown): void {
    socket.send(JSON.stringify({ op, d }));
    this.options.onSent?.({ op, d });
  }

  #connect(): void {
    this.#seq = null;
    this.options.onStatus?.('connecting');
    const socket = new GatewaySocket(DEMO_GATEWAY_URL);
    this.#socket = socket;
    socket.addEventListener('message', (event) => this.#receive(socket, (event as MessageEvent<string>).data));
    socket.addEventListener('close', (closed) => {
      const event = closed as CloseEvent;
      clearInterval(this.#heartbeat);
      if (this.#socket !== socket || this.#stopped) return;
      if (event.code === GATEWAY_CLOSE_CODES.AUTHENTICATION_FAILED && this.options.renew && !this.#renewed) {
        this.#renewed = true;
        this.options.onStatus?.('connecting');
        this.options.renew().then(
          () => !this.#stopped && this.#connect(),
          (error) =>
            this.options.onStatus?.(
              'closed',
              `the token could not be renewed: ${error instanceof Error ? error.message : error}`,
            ),
        );
        return;
      }
      if (FATAL_CLOSE_CODES.has(event.code)) {
        this.options.onStatus?.(
          'closed',
          `the gateway closed the session (${event.code}${event.reason ? `: ${event.reason}` : ''})`,
        );
        return;
      }
      this.options.onStatus?.('connecting');
      this.#retry = setTimeout(() => this.#connect(), RECONNECT_DELAY_MS);
    });
  }

  #receive(socket: GatewaySocket, text: string): void {
    let payload: GatewayPayload<any>;
    try {
      payload = JSON.parse(text);
    } catch {
      return;
    }
    this.options.onPayload?.(payload);
    const beat = () => this.#send(socket, OP.HEARTBEAT, this.#seq);
    switch (payload.op) {
      case OP.HELLO:
        clearInterval(this.#heartbeat);
        this.#heartbeat = setInterval(beat, payload.d.heartbeat_interval);
        this.#send(socket, OP.IDENTIFY, {
          token: typeof this.options.token === 'function' ? this.options.token() : this.options.token,
          intents: this.options.intents,
          ...(this.options.capabilities ? { capabilities: this.options.capabilities } : {}),
          properties: { os: 'browser', browser: 'platformpp-demo', device: 'platformpp-demo' },
        });
        return;
      case OP.HEARTBEAT:
        return beat();
      case OP.DISPATCH:
        this.#seq = payload.s;
        if (payload.t === 'READY') {
          this.#renewed = false;
          this.options.onStatus?.('ready');
        }
        if (payload.t) this.options.onDispatch(payload.t, payload.d, payload.s);
        return;
      case OP.RECONNECT:
      case OP.INVALID_SESSION:
        // A fresh Identify on a new connection: the close listener reconnects.
        socket.close(RESUME_CLOSE_CODE, 'Reconnecting');
        return;
    }
  }
}

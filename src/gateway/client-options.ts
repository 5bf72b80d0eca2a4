/**
 * What the gateway client loop (`client.ts`) takes and reports: its socket, timers, options,
 * states and listener. Types only.
 */
import type { GatewayDispatch } from '../store/records/dispatches';
import type { GatewayPayload, IdentifyData } from './protocol';
import type { GatewayTimers } from './timers';

/** The part of the WebSocket interface the loop uses. */
export interface GatewayClientSocket {
  /** The WebSocket's `readyState` (1 is open); a socket without one counts as open while it delivers. */
  readonly readyState?: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message' | 'close', listener: (event: any) => void): void;
}

/** Opens a socket to the gateway URL; may fail or resolve later. */
export type GatewaySocketFactory = (url: string) => GatewayClientSocket | Promise<GatewayClientSocket>;

/** The timers the loop uses (heartbeats, reconnect delays); tests pass their own. */
export type GatewayClientTimers = Pick<GatewayTimers, 'setTimeout' | 'clearTimeout'>;

/**
 * Where the loop is: `idle` before `start()` and after `stop()`; `connecting` on the first
 * socket; `connected` once Hello arrived (Identify or Resume sent); `ready` on READY or RESUMED;
 * `reconnecting` after an unexpected close, until the next Hello; `closed` when the gateway
 * refused it for good (a fatal close code, no token, a first socket that could not be opened).
 */
export type GatewayClientState = 'idle' | 'connecting' | 'connected' | 'ready' | 'reconnecting' | 'closed';

/** A change of state: the close that caused it (`reconnecting`, `closed`), or whether `ready` resumed the session. */
export interface GatewayClientStateChange {
  state: GatewayClientState;
  /** The close code (0 when no socket could be opened). */
  code?: number;
  reason?: string;
  /** On `ready`: true after RESUMED (nothing was missed), false after READY (a new session). */
  resumed?: boolean;
}

/** What the loop tells its owner. */
export interface GatewayClientListener {
  /** Every dispatch, in order, READY and RESUMED included, with its sequence number. */
  dispatch?(dispatch: GatewayDispatch, seq: number | null): void;
  /** Every change of state. */
  state?(change: GatewayClientStateChange): void;
  /** Every payload received, dispatches included (for an event viewer). */
  received?(payload: GatewayPayload): void;
  /** Every payload sent, Identify with its token included (an event viewer must redact it). */
  sent?(payload: { op: number; d: unknown }): void;
}

/** Where the loop logs; the token never reaches it. */
export interface GatewayClientLog {
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
}

/** How a loop connects. */
export interface GatewayClientOptions {
  openSocket: GatewaySocketFactory;
  timers: GatewayClientTimers;
  /**
   * Identify's `d`, built at each attempt so that a new token applies; its `token` also goes into
   * Resume. Null when there is no token any more: the loop then stops (`closed`, 4004).
   */
  identify(): IdentifyData | null;
  /** False: every new connection identifies afresh instead of resuming (a client that rebuilds its state from READY). */
  resume?: boolean;
  /** Delay before reconnect attempt `n` (0-based; READY and RESUMED start again from 0). Default: 1 s doubling to 30 s. */
  reconnectDelayMs?(attempt: number): number;
  /** The first connection's URL; later ones use READY's `resume_gateway_url`. Default `GATEWAY_CLIENT_URL`. */
  url?: string;
  log?: GatewayClientLog;
  listener: GatewayClientListener;
}

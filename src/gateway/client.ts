/**
 * The client side of the gateway wire, written once: the loop every client of the gateway runs
 * (the game SDK's connection, an activity frame's platform events, the demo's sessions). It
 * opens a socket, answers Hello with Identify (or Resume, with the session's `session_id` and
 * last `seq`), heartbeats on the interval Hello gave and counts a heartbeat left unacknowledged
 * as a dead socket, follows Reconnect (op 7) and Invalid Session (op 9), and after an unexpected
 * close connects again after a delay, resuming the session, until a fatal close code
 * (`FATAL_CLOSE_CODES`) or `stop()`.
 *
 * It touches no browser global: the socket factory and the timers are given, so the SDK can load
 * it eagerly and a Node or workerd client can run it as it is. A page passes
 * `(url) => new GatewaySocket(url)` (the shared worker's gateway, with the WebSocket interface);
 * a Node program can pass `(url) => new WebSocket(url)` for a server.
 */
import type { GatewayDispatch } from '../store/records/dispatches';
import {
  FATAL_CLOSE_CODES,
  GATEWAY_CLOSE_CODES,
  GATEWAY_OPCODES as OP,
  IDENTIFY_AGAIN_CLOSE_CODES,
  RESUME_CLOSE_CODE,
  type GatewayPayload,
} from './protocol';
import type {
  GatewayClientLog,
  GatewayClientOptions,
  GatewayClientSocket,
  GatewayClientState,
  GatewayClientStateChange,
} from './client-options';

/** The gateway URL clients connect to (CONTRACT §4). */
export const GATEWAY_CLIENT_URL = '/gateway?v=10&encoding=json';

export type {
  GatewayClientListener,
  GatewayClientLog,
  GatewayClientOptions,
  GatewayClientSocket,
  GatewayClientState,
  GatewayClientStateChange,
  GatewayClientTimers,
  GatewaySocketFactory,
} from './client-options';

/** The heartbeat interval when Hello names none (the platform's usual value). */
const DEFAULT_HEARTBEAT_MS = 41_250;
/** How long `stop()` waits for the socket's close event. */
const CLOSE_WAIT_MS = 1000;
const OPEN = 1;

const defaultDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);
const silent: GatewayClientLog = { info: () => undefined, warning: () => undefined, error: () => undefined };

/**
 * READY's `resume_gateway_url` with the version and encoding, as a client resumes on it.
 * @example resumeUrl('/gateway') // '/gateway?v=10&encoding=json'
 */
export function resumeUrl(url: unknown, fallback = GATEWAY_CLIENT_URL): string {
  if (typeof url !== 'string' || url === '') return fallback;
  return url.includes('?') ? url : `${url}?v=10&encoding=json`;
}

/**
 * One client's connection to the gateway.
 * @example
 * const client = new GatewayClient({
 *   openSocket: (url) => new GatewaySocket(url),
 *   timers: globalThis,
 *   identify: () => ({ token: `Bearer ${token}`, intents: 0, properties: { os: 'browser' } }),
 *   listener: { dispatch: (dispatch) => console.log(dispatch.t) },
 * });
 * client.start();
 */
export class GatewayClient {
  #state: GatewayClientState = 'idle';
  #socket: GatewayClientSocket | null = null;
  #sessionId: string | null = null;
  #resumeUrl: string | null = null;
  #seq: number | null = null;
  #heartbeat: unknown = null;
  #acked = true;
  #retry: unknown = null;
  #attempt = 0;
  /** Counts starts and stops: a socket that opens after its run ended is closed at once. */
  #run = 0;
  readonly #log: GatewayClientLog;

  constructor(private readonly options: GatewayClientOptions) {
    this.#log = options.log ?? silent;
  }

  /** Where the loop is. */
  get state(): GatewayClientState {
    return this.#state;
  }

  /** READY's session id (a voice state names it); null before READY and once the session ended. */
  get sessionId(): string | null {
    return this.#sessionId;
  }

  /** Connects, from `idle` or `closed`; does nothing while a connection runs. */
  start(): void {
    if (this.#state !== 'idle' && this.#state !== 'closed') return;
    this.#run++;
    this.#attempt = 0;
    this.#set({ state: 'connecting' });
    this.#open();
  }

  /**
   * Sends a payload (Request Guild Members, a Voice State Update...) on the open socket; false
   * when there is none.
   */
  send(op: number, d: unknown): boolean {
    const socket = this.#socket;
    if (!socket || !isOpen(socket)) return false;
    this.#send(socket, op, d);
    return true;
  }

  /**
   * Ends the connection for good (close 1000: the session ends) and forgets the session; no
   * state change is reported, the owner asked for it. Resolves once the socket closed (at most
   * a second: a close event that never comes must not hold the owner).
   */
  async stop(reason = 'Client disconnect.'): Promise<void> {
    this.#run++;
    this.options.timers.clearTimeout(this.#retry);
    this.#stopHeartbeat();
    this.#sessionId = null;
    this.#seq = null;
    this.#state = 'idle';
    const socket = this.#socket;
    this.#socket = null;
    if (!socket || (socket.readyState ?? OPEN) >= 2) return;
    let timer: unknown;
    await new Promise<void>((resolve) => {
      socket.addEventListener('close', () => resolve());
      timer = this.options.timers.setTimeout(resolve, CLOSE_WAIT_MS);
      socket.close(1000, reason);
    });
    this.options.timers.clearTimeout(timer);
  }

  /** Opens a socket; a factory that answers at once is used at once (no await in between). */
  #open(): void {
    const run = this.#run;
    const url = (this.#resumes() && this.#resumeUrl) || this.options.url || GATEWAY_CLIENT_URL;
    let opened: GatewayClientSocket | Promise<GatewayClientSocket>;
    try {
      opened = this.options.openSocket(url);
    } catch (error) {
      return this.#openFailed(run, error);
    }
    if (opened instanceof Promise)
      opened.then(
        (socket) => this.#attach(run, socket),
        (error: unknown) => this.#openFailed(run, error),
      );
    else this.#attach(run, opened);
  }

  #openFailed(run: number, error: unknown): void {
    this.#log.error(`Gateway: could not open a socket: ${error instanceof Error ? error.message : String(error)}`);
    if (run === this.#run) this.#lost(0, '', true);
  }

  #attach(run: number, socket: GatewayClientSocket): void {
    // The run ended (stop(), or stop() then start()) while the socket was being opened.
    if (run !== this.#run) return socket.close(1000);
    this.#socket = socket;
    socket.addEventListener('message', (event: { data: unknown }) => {
      if (this.#socket === socket) this.#receive(socket, event.data);
    });
    socket.addEventListener('close', (event: { code?: number; reason?: string }) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#log.info(`Gateway: socket closed (${event.code ?? 0} ${event.reason ?? ''}).`);
      this.#lost(event.code ?? 0, event.reason ?? '', false);
    });
  }

  #receive(socket: GatewayClientSocket, data: unknown): void {
    let payload: GatewayPayload<any>;
    try {
      payload = JSON.parse(String(data));
    } catch {
      return this.#log.warning('Gateway: a payload was not JSON; ignored.');
    }
    this.options.listener.received?.(payload);
    if (typeof payload.s === 'number') this.#seq = payload.s;
    switch (payload.op) {
      case OP.HELLO:
        this.#startHeartbeat(socket, Number(payload.d?.heartbeat_interval) || DEFAULT_HEARTBEAT_MS);
        this.#set({ state: 'connected' });
        return this.#authenticate(socket);
      case OP.HEARTBEAT_ACK:
        this.#acked = true;
        return;
      case OP.HEARTBEAT:
        return this.#send(socket, OP.HEARTBEAT, this.#seq);
      case OP.RECONNECT:
        return this.#drop(socket, 'Reconnect requested.');
      case OP.INVALID_SESSION:
        // `d: true`: the session may still be resumed, on a new connection. Otherwise it is gone,
        // and the gateway takes a fresh Identify on this one.
        if (payload.d === true && this.#resumes()) return this.#drop(socket, 'Resuming on a new connection.');
        this.#log.info('Gateway: the session cannot be resumed; identifying anew.');
        this.#sessionId = null;
        return this.#authenticate(socket);
      case OP.DISPATCH:
        if (typeof payload.t === 'string') this.#dispatch({ t: payload.t, d: payload.d } as GatewayDispatch, payload.s);
    }
  }

  /** The dispatches arrive as the gateway typed them (`src/store/records/dispatches.ts`). */
  #dispatch(dispatch: GatewayDispatch, seq: number | null): void {
    if (dispatch.t === 'READY') {
      this.#sessionId = typeof dispatch.d?.session_id === 'string' ? dispatch.d.session_id : null;
      this.#resumeUrl = resumeUrl(dispatch.d?.resume_gateway_url, this.options.url);
    }
    this.options.listener.dispatch?.(dispatch, seq);
    if (dispatch.t === 'READY' || dispatch.t === 'RESUMED') {
      this.#attempt = 0;
      this.#set({ state: 'ready', resumed: dispatch.t === 'RESUMED' });
    }
  }

  #resumes(): boolean {
    return this.options.resume !== false && this.#sessionId !== null;
  }

  /** Identify, or Resume when a session can be resumed. */
  #authenticate(socket: GatewayClientSocket): void {
    const identify = this.options.identify();
    if (!identify) {
      // The token was cleared while connecting: nothing to identify with, so stop here.
      this.#socket = null;
      this.#stopHeartbeat();
      socket.close(1000, 'No token.');
      return this.#set({ state: 'closed', code: GATEWAY_CLOSE_CODES.AUTHENTICATION_FAILED, reason: 'No token.' });
    }
    if (this.#resumes() && this.#seq !== null) {
      this.#send(socket, OP.RESUME, { token: identify.token, session_id: this.#sessionId, seq: this.#seq });
    } else {
      this.#sessionId = null;
      this.#seq = null;
      this.#send(socket, OP.IDENTIFY, identify);
    }
  }

  /** The socket is gone: reconnect after a delay (resuming), or stop when that cannot help. */
  #lost(code: number, reason: string, failedToOpen: boolean): void {
    this.#stopHeartbeat();
    if (this.#state === 'idle' || this.#state === 'closed') return;
    if (FATAL_CLOSE_CODES.has(code) || (failedToOpen && this.#state === 'connecting')) {
      this.#sessionId = null;
      return this.#set({ state: 'closed', code, reason });
    }
    if (IDENTIFY_AGAIN_CLOSE_CODES.has(code)) this.#sessionId = null;
    this.#set({ state: 'reconnecting', code, reason });
    const delay = (this.options.reconnectDelayMs ?? defaultDelay)(this.#attempt++);
    const run = this.#run;
    this.#retry = this.options.timers.setTimeout(() => run === this.#run && this.#open(), delay);
  }

  /** Closes the socket on purpose and reconnects: the session is kept for Resume. */
  #drop(socket: GatewayClientSocket, reason: string): void {
    this.#socket = null;
    socket.close(RESUME_CLOSE_CODE, reason);
    this.#lost(RESUME_CLOSE_CODE, reason, false);
  }

  #startHeartbeat(socket: GatewayClientSocket, interval: number): void {
    this.#stopHeartbeat();
    this.#acked = true;
    const beat = (delay: number) => {
      this.#heartbeat = this.options.timers.setTimeout(() => {
        if (this.#socket !== socket) return;
        if (!this.#acked) return this.#drop(socket, 'Heartbeat not acknowledged.');
        this.#acked = false;
        this.#send(socket, OP.HEARTBEAT, this.#seq);
        beat(interval);
      }, delay);
    };
    // The first beat at a random point of the interval, so that clients do not beat in step.
    beat(Math.floor(interval * Math.random()));
  }

  #stopHeartbeat(): void {
    this.options.timers.clearTimeout(this.#heartbeat);
    this.#heartbeat = null;
  }

  #send(socket: GatewayClientSocket, op: number, d: unknown): void {
    if (!isOpen(socket)) return;
    socket.send(JSON.stringify({ op, d }));
    this.options.listener.sent?.({ op, d });
  }

  #set(change: GatewayClientStateChange): void {
    this.#state = change.state;
    this.options.listener.state?.(change);
  }
}

function isOpen(socket: GatewayClientSocket): boolean {
  return socket.readyState === undefined || socket.readyState === OPEN;
}

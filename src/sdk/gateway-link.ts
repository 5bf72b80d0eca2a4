/**
 * The client's gateway connection as a state machine over a WebSocket-like socket (a
 * `GatewaySocket` in a page, a fake in unit tests): Connecting, Connected on Hello, Ready on
 * READY; an unexpected close goes Reconnecting and Resumes the session on a new socket;
 * `disconnect()` goes Disconnecting, then Disconnected. Heartbeats keep the session alive; an
 * unacknowledged heartbeat counts as a dead socket.
 */
import {
  FATAL_CLOSE_CODES,
  GATEWAY_CLOSE_CODES,
  GATEWAY_OPCODES as OP,
  IDENTIFY_AGAIN_CLOSE_CODES,
  RESUME_CLOSE_CODE,
  type GatewayPayload,
} from '../gateway/protocol';
import { ErrorType, SdkError } from './errors';
import type { SdkLogger } from './logger';
import { GATEWAY_URL, REAL_TIMERS, type LinkTimers, type SocketFactory, type WebSocketLike } from './socket';
import { ClientError, clientErrorToString, Status, statusToString } from './status';

/** How long `disconnect()` waits for the socket's close event. */
const CLOSE_WAIT_MS = 1000;

/** What the link tells its client. */
export interface LinkEvents {
  status(status: Status, error: ClientError, detail: number): void;
  dispatch(t: string, d: any): void;
}

/** Options of a link. */
export interface LinkOptions {
  socketFactory: SocketFactory;
  /** The token Identify and Resume carry (read at each attempt, so `updateToken` applies). */
  token(): string | null;
  log: SdkLogger;
  events: LinkEvents;
  timers?: LinkTimers;
  /** Delay before reconnect attempt `n` (0-based). */
  reconnectDelayMs?: (attempt: number) => number;
}

/** The client's connection to the gateway. */
export class GatewayLink {
  status: Status = Status.Disconnected;
  #socket: WebSocketLike | null = null;
  #sessionId: string | null = null;
  #seq: number | null = null;
  #heartbeat: unknown = null;
  #acked = true;
  #retry: unknown = null;
  #attempt = 0;
  #waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  readonly #timers: LinkTimers;

  constructor(private readonly options: LinkOptions) {
    this.#timers = options.timers ?? REAL_TIMERS;
  }

  /**
   * Connects from Disconnected; `prepare` runs first, in HttpWait. Resolves once Ready; rejects
   * when the connection ends in Disconnected first (a failed `prepare` rejects with its error).
   */
  async connect(prepare?: () => Promise<void>): Promise<void> {
    if (this.status === Status.Ready) return;
    const ready = new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    // Handled here so that a failed `prepare`, which rejects with its own error, leaves no stray rejection.
    ready.catch(() => undefined);
    if (this.status !== Status.Disconnected) return ready;
    if (prepare) {
      this.#set(Status.HttpWait);
      try {
        await prepare();
      } catch (error) {
        if (this.#current() === Status.HttpWait)
          this.#set(Status.Disconnected, ClientError.ConnectionFailed, (error as { status?: number }).status ?? 0);
        throw error;
      }
      // disconnect() while the HTTP answer was awaited: `ready` has already been rejected.
      if (this.#current() !== Status.HttpWait) return ready;
    }
    this.#set(Status.Connecting);
    await this.#open();
    return ready;
  }

  /** The session id of READY (a voice state names it); null before and after a session. */
  get sessionId(): string | null {
    return this.#sessionId;
  }

  /**
   * Sends a command on the gateway (a Voice State Update) while Ready; false when there is no
   * session to send it on.
   */
  sendCommand(op: number, d: unknown): boolean {
    if (this.status !== Status.Ready || !this.#socket || this.#socket.readyState !== 1) return false;
    this.#send(op, d);
    return true;
  }

  /** The status, read afresh (an await may have changed it). */
  #current(): Status {
    return this.status;
  }

  /** Closes the connection for good (the session ends); resolves once Disconnected. */
  async disconnect(): Promise<void> {
    if (this.status === Status.Disconnected || this.status === Status.Disconnecting) return;
    const canceled = this.status !== Status.Ready;
    this.#timers.clearTimeout(this.#retry);
    this.#stopHeartbeat();
    this.#sessionId = null;
    const socket = this.#socket;
    this.#socket = null;
    this.#set(Status.Disconnecting);
    if (socket && socket.readyState < 2) {
      let timer: unknown;
      await new Promise<void>((resolve) => {
        socket.addEventListener('close', () => resolve());
        // A socket whose close event never comes must not keep the client in Disconnecting.
        timer = this.#timers.setTimeout(resolve, CLOSE_WAIT_MS);
        socket.close(1000, 'Client disconnect.');
      });
      this.#timers.clearTimeout(timer);
    }
    this.#set(Status.Disconnected, canceled ? ClientError.ConnectionCanceled : ClientError.None);
  }

  async #open(): Promise<void> {
    let socket: WebSocketLike;
    try {
      socket = await this.options.socketFactory(GATEWAY_URL);
    } catch (error) {
      this.options.log.error(
        `Gateway: could not open a socket: ${error instanceof Error ? error.message : String(error)}`,
      );
      return this.#lost(0, true);
    }
    if (this.status !== Status.Connecting && this.status !== Status.Reconnecting) return socket.close(1000);
    this.#socket = socket;
    socket.addEventListener('message', (event: { data: unknown }) => {
      if (this.#socket === socket) this.#receive(event.data);
    });
    socket.addEventListener('close', (event: { code?: number; reason?: string }) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.options.log.info(`Gateway: socket closed (${event.code ?? 0} ${event.reason ?? ''}).`);
      this.#lost(event.code ?? 0, false);
    });
  }

  #receive(data: unknown): void {
    let payload: GatewayPayload<any>;
    try {
      payload = JSON.parse(String(data));
    } catch {
      return this.options.log.warning('Gateway: a payload was not JSON; ignored.');
    }
    if (typeof payload.s === 'number') this.#seq = payload.s;
    switch (payload.op) {
      case OP.HELLO:
        this.#startHeartbeat(Number(payload.d?.heartbeat_interval) || 41_250);
        this.#set(Status.Connected);
        return this.#authenticate();
      case OP.HEARTBEAT_ACK:
        this.#acked = true;
        return;
      case OP.HEARTBEAT:
        return this.#send(OP.HEARTBEAT, this.#seq);
      case OP.RECONNECT:
        return this.#drop(RESUME_CLOSE_CODE, 'Reconnect requested.');
      case OP.INVALID_SESSION:
        this.options.log.info('Gateway: the session cannot be resumed; identifying anew.');
        this.#sessionId = null;
        return this.#authenticate();
      case OP.DISPATCH:
        return this.#dispatch(String(payload.t), payload.d);
    }
  }

  #dispatch(t: string, d: any): void {
    if (t === 'READY') {
      this.#sessionId = typeof d?.session_id === 'string' ? d.session_id : null;
      this.#attempt = 0;
      this.options.events.dispatch(t, d);
      return this.#set(Status.Ready);
    }
    if (t === 'RESUMED') {
      this.#attempt = 0;
      return this.#set(Status.Ready);
    }
    this.options.events.dispatch(t, d);
  }

  /** Identify, or Resume when a session can be resumed. */
  #authenticate(): void {
    const token = this.options.token();
    if (!token) {
      // The token was cleared while connecting: nothing to identify with, so stop here.
      this.#socket?.close(1000, 'No token.');
      this.#socket = null;
      this.#stopHeartbeat();
      return this.#set(Status.Disconnected, ClientError.ConnectionFailed, GATEWAY_CLOSE_CODES.AUTHENTICATION_FAILED);
    }
    if (this.#sessionId && this.#seq !== null) {
      this.#send(OP.RESUME, { token: `Bearer ${token}`, session_id: this.#sessionId, seq: this.#seq });
    } else {
      this.#seq = null;
      this.#send(OP.IDENTIFY, {
        token: `Bearer ${token}`,
        intents: 0,
        properties: { os: 'browser', browser: 'platformpp-sdk', device: 'platformpp-sdk' },
      });
    }
  }

  /** The socket is gone: reconnect and Resume, or stop when that cannot help. */
  #lost(code: number, failedToOpen: boolean): void {
    this.#stopHeartbeat();
    if (this.status === Status.Disconnecting || this.status === Status.Disconnected) return;
    if (FATAL_CLOSE_CODES.has(code) || (failedToOpen && this.status === Status.Connecting)) {
      this.#sessionId = null;
      return this.#set(Status.Disconnected, ClientError.ConnectionFailed, code);
    }
    if (IDENTIFY_AGAIN_CLOSE_CODES.has(code)) this.#sessionId = null;
    this.#set(Status.Reconnecting, ClientError.UnexpectedClose, code);
    const delay = (this.options.reconnectDelayMs ?? ((n) => Math.min(1000 * 2 ** n, 30_000)))(this.#attempt++);
    this.#retry = this.#timers.setTimeout(() => void this.#open(), delay);
  }

  /** Closes the current socket on purpose and reconnects (the session is kept for Resume). */
  #drop(code: number, reason: string): void {
    const socket = this.#socket;
    this.#socket = null;
    socket?.close(code, reason);
    this.#lost(code, false);
  }

  #startHeartbeat(interval: number): void {
    this.#stopHeartbeat();
    this.#acked = true;
    const beat = (delay: number) => {
      this.#heartbeat = this.#timers.setTimeout(() => {
        if (!this.#acked) return this.#drop(RESUME_CLOSE_CODE, 'Heartbeat not acknowledged.');
        this.#acked = false;
        this.#send(OP.HEARTBEAT, this.#seq);
        beat(interval);
      }, delay);
    };
    // The first beat at a random point of the interval, so that clients do not beat in step.
    beat(Math.floor(interval * Math.random()));
  }

  #stopHeartbeat(): void {
    this.#timers.clearTimeout(this.#heartbeat);
    this.#heartbeat = null;
  }

  #send(op: number, d: unknown): void {
    if (this.#socket && this.#socket.readyState === 1) this.#socket.send(JSON.stringify({ op, d }));
  }

  #set(status: Status, error: ClientError = ClientError.None, detail = 0): void {
    if (this.status === status && error === ClientError.None) return;
    this.status = status;
    this.options.log.info(
      `Status: ${statusToString(status)}${error !== ClientError.None ? ` (error ${error}, detail ${detail})` : ''}`,
    );
    if (status === Status.Ready || status === Status.Disconnected) {
      const failure = new SdkError({
        type: ErrorType.NetworkError,
        code: detail || null,
        message: `The gateway connection ended before it was Ready (${clientErrorToString(error)}${detail ? `, close code ${detail}` : ''}).`,
      });
      for (const waiter of this.#waiters.splice(0)) status === Status.Ready ? waiter.resolve() : waiter.reject(failure);
    }
    this.options.events.status(status, error, detail);
  }
}

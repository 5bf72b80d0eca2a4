/**
 * The client's gateway connection as the platform SDK's state machine (`Client::Status`) over
 * the platform's one gateway loop (`src/gateway/client.ts`): Connecting, Connected on Hello,
 * Ready on READY; an unexpected close goes Reconnecting and Resumes the session on a new
 * socket; `disconnect()` goes Disconnecting, then Disconnected. Heartbeats keep the session
 * alive; an unacknowledged heartbeat counts as a dead socket. The loop does the wire; the link
 * adds the SDK's statuses, the HTTP wait before connecting and the promise `connect()` returns.
 */
import { GatewayClient, type GatewayClientStateChange } from '../gateway/client';
import type { GatewayDispatch } from '../gateway/protocol';
import { ErrorType, SdkError } from './errors';
import type { SdkLogger } from './logger';
import { GATEWAY_URL, REAL_TIMERS, type LinkTimers, type SocketFactory } from './socket';
import { ClientError, clientErrorToString, Status, statusToString } from './status';

/** What the link tells its client. */
export interface LinkEvents {
  status(status: Status, error: ClientError, detail: number): void;
  /** Every dispatch but RESUMED (the session simply goes on). */
  dispatch(dispatch: GatewayDispatch): void;
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
  #waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  readonly #loop: GatewayClient;

  constructor(private readonly options: LinkOptions) {
    this.#loop = new GatewayClient({
      openSocket: options.socketFactory,
      timers: options.timers ?? REAL_TIMERS,
      url: GATEWAY_URL,
      reconnectDelayMs: options.reconnectDelayMs,
      log: {
        info: (message) => options.log.info(message),
        warning: (message) => options.log.warning(message),
        error: (message) => options.log.error(message),
      },
      identify: () => {
        const token = options.token();
        return token
          ? {
              token: `Bearer ${token}`,
              intents: 0,
              properties: { os: 'browser', browser: 'platformpp-sdk', device: 'platformpp-sdk' },
            }
          : null;
      },
      listener: {
        dispatch: (dispatch) => {
          if (dispatch.t !== 'RESUMED') options.events.dispatch(dispatch);
        },
        state: (change) => this.#follow(change),
      },
    });
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
    this.#loop.start();
    return ready;
  }

  /** The session id of READY (a voice state names it); null before and after a session. */
  get sessionId(): string | null {
    return this.#loop.sessionId;
  }

  /**
   * Sends a command on the gateway (a Voice State Update) while Ready; false when there is no
   * session to send it on.
   */
  sendCommand(op: number, d: unknown): boolean {
    return this.status === Status.Ready && this.#loop.send(op, d);
  }

  /** Closes the connection for good (the session ends); resolves once Disconnected. */
  async disconnect(): Promise<void> {
    if (this.status === Status.Disconnected || this.status === Status.Disconnecting) return;
    const canceled = this.status !== Status.Ready;
    const closed = this.#loop.stop('Client disconnect.');
    this.#set(Status.Disconnecting);
    await closed;
    this.#set(Status.Disconnected, canceled ? ClientError.ConnectionCanceled : ClientError.None);
  }

  /** The status, read afresh (an await may have changed it). */
  #current(): Status {
    return this.status;
  }

  /** The loop's state as the SDK's status. */
  #follow(change: GatewayClientStateChange): void {
    switch (change.state) {
      case 'connecting':
        return this.#set(Status.Connecting);
      case 'connected':
        return this.#set(Status.Connected);
      case 'ready':
        return this.#set(Status.Ready);
      case 'reconnecting':
        return this.#set(Status.Reconnecting, ClientError.UnexpectedClose, change.code ?? 0);
      case 'closed':
        return this.#set(Status.Disconnected, ClientError.ConnectionFailed, change.code ?? 0);
    }
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

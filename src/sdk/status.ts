/**
 * The client's connection status and why a connection ended, numbered as the platform SDK's
 * `Client::Status` and `Client::Error` are.
 */

/** Where the client's connection to the gateway is. */
export const Status = {
  /** No connection; `connect()` starts one. */
  Disconnected: 0,
  /** The gateway socket is opening. */
  Connecting: 1,
  /** The gateway said Hello; Identify (or Resume) is on its way. */
  Connected: 2,
  /** READY (or RESUMED) arrived: events flow and the current user is known. */
  Ready: 3,
  /** The socket closed unexpectedly; a new one will Resume the session. */
  Reconnecting: 4,
  /** `disconnect()` was called; the socket is closing. */
  Disconnecting: 5,
  /** Waiting for an HTTP answer the connection needs first (the token check of `connect()`). */
  HttpWait: 6,
} as const;

/** One of {@link Status}. */
export type Status = (typeof Status)[keyof typeof Status];

/** Why the status changed, when it was not asked for. */
export const ClientError = {
  None: 0,
  /** The connection could not be made, or the gateway refused it for good (e.g. 4004 bad token). */
  ConnectionFailed: 1,
  /** The socket closed without being asked to; the client reconnects. */
  UnexpectedClose: 2,
  /** `disconnect()` was called before the connection was Ready. */
  ConnectionCanceled: 3,
} as const;

/** One of {@link ClientError}. */
export type ClientError = (typeof ClientError)[keyof typeof ClientError];

/**
 * Receives each status change: the new status, why (`ClientError.None` when asked for), and a
 * detail code (the socket's close code, or the HTTP status of a failed token check; else 0).
 */
export type StatusChangedCallback = (status: Status, error: ClientError, errorDetail: number) => void;

/**
 * The status's name.
 * @example statusToString(Status.HttpWait) // 'HttpWait'
 */
export function statusToString(status: Status): string {
  return Object.entries(Status).find(([, value]) => value === status)?.[0] ?? `Unknown(${status})`;
}

/** The error's name. */
export function clientErrorToString(error: ClientError): string {
  return Object.entries(ClientError).find(([, value]) => value === error)?.[0] ?? `Unknown(${error})`;
}

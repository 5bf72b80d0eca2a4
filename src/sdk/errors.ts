/**
 * What a failed SDK operation tells its caller: the platform SDK's `ClientResult` as a thrown
 * (or rejected) `Error`. Every message says which operation failed and why, and never carries
 * a token: messages are built from the platform's answer, which names fields, not values.
 */

/** The kind of failure, as the platform SDK's `ErrorType` names them. */
export const ErrorType = {
  /** Not an error (only in results that carry one). */
  None: 'None',
  /** The request did not get an answer: no network, the service worker stopped, or a timeout. */
  NetworkError: 'NetworkError',
  /** The platform answered with an HTTP error status. */
  HTTPError: 'HTTPError',
  /** The operation needs a token (or a Ready connection) that the client does not have yet. */
  ClientNotReady: 'ClientNotReady',
  /** The feature is switched off for this client. */
  Disabled: 'Disabled',
  /** The client was used after `destroy()`. */
  ClientDestroyed: 'ClientDestroyed',
  /** The arguments were refused before anything was sent. */
  ValidationError: 'ValidationError',
  /** The operation was cancelled (the user said no, or the caller aborted). */
  Aborted: 'Aborted',
  /** The OAuth2 authorization or token endpoint refused (`invalid_grant`, `access_denied`...). */
  AuthorizationFailed: 'AuthorizationFailed',
  /** The host platform client could not be reached for a request it had to answer. */
  RPCError: 'RPCError',
} as const;

/** One of {@link ErrorType}. */
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

/** The fields of an {@link SdkError}. */
export interface SdkErrorInit {
  type: ErrorType;
  message: string;
  /** HTTP status of the platform's answer; 0 when there was none. */
  status?: number;
  /** The platform's JSON error code (`10031`), or the OAuth2 error (`invalid_grant`); null when none. */
  code?: number | string | null;
  /** True when trying again later may succeed (network errors, timeouts, 429, 5xx). */
  retryable?: boolean;
  /** Seconds to wait before a retry, when the platform said (429). */
  retryAfter?: number | null;
  /** True when the request was cut off by the client's HTTP timeout. */
  timedOut?: boolean;
  cause?: unknown;
}

/**
 * A failed SDK operation.
 * @example
 * try { await client.getLobbyMessagesWithLimit(lobbyId, 50); }
 * catch (e) { if (e instanceof SdkError && e.code === 10031) console.log('no such lobby'); }
 */
export class SdkError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly code: number | string | null;
  readonly retryable: boolean;
  readonly retryAfter: number | null;
  readonly timedOut: boolean;

  constructor(init: SdkErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'SdkError';
    this.type = init.type;
    this.status = init.status ?? 0;
    this.code = init.code ?? null;
    this.retryable = init.retryable ?? false;
    this.retryAfter = init.retryAfter ?? null;
    this.timedOut = init.timedOut ?? false;
  }

  /** Arguments refused before anything was sent. */
  static validation(message: string): SdkError {
    return new SdkError({ type: ErrorType.ValidationError, message });
  }

  /** An operation that needs something the client does not have yet. */
  static notReady(message: string): SdkError {
    return new SdkError({ type: ErrorType.ClientNotReady, message });
  }

  /** The `successful` flag of the platform SDK's ClientResult: always false for an error. */
  get successful(): false {
    return false;
  }
}

/**
 * A call's status and why it changed, numbered as the platform SDK numbers `Call::Status` and
 * `Call::Error`: what the call handle (`call.ts`) and its signaling (`call-signaling.ts`) share.
 */

/** Where a call is. */
export const CallStatus = {
  /** Not in the call: ended, or failed (then it stays so until `endCall` and a new `startCall`). */
  Disconnected: 0,
  /** Voice State Update sent; waiting for the voice state and the voice server. */
  Joining: 1,
  /** The voice gateway socket is opening; Identify follows Hello. */
  Connecting: 2,
  /** The voice gateway answered Ready: the signaling is up, the session is being described. */
  SignalingConnected: 3,
  /** Session Description received (or the session resumed): the call is up. */
  Connected: 4,
  /** The voice socket dropped: a new one resumes the session. */
  Reconnecting: 5,
  /** `endCall` was called: leaving the call. */
  Disconnecting: 6,
} as const;

/** One of {@link CallStatus}. */
export type CallStatus = (typeof CallStatus)[keyof typeof CallStatus];

/** Why a call's status changed, when it was not asked for. */
export const CallError = {
  None: 0,
  /** The voice gateway could not be reached, or the gateway connection the call stood on ended. */
  SignalingConnectionFailed: 1,
  /** The voice gateway closed the connection (the detail is its close code). */
  SignalingUnexpectedClose: 2,
  /** The voice server could not be joined (the signaling went, the session did not). */
  VoiceConnectionFailed: 3,
  /** The call was not Connected in time (`SDK_CALL_JOIN_TIMEOUT_MS`). */
  JoinTimeout: 4,
  /** The user may not join this lobby's call (the detail is the HTTP status). */
  Forbidden: 5,
} as const;

/** One of {@link CallError}. */
export type CallError = (typeof CallError)[keyof typeof CallError];

/** Receives each status change of a call: the new status, why, and a detail code (a close code or an HTTP status). */
export type CallStatusChangedCallback = (status: CallStatus, error: CallError, errorDetail: number) => void;

/**
 * The status's name.
 * @example callStatusToString(CallStatus.SignalingConnected) // 'SignalingConnected'
 */
export function callStatusToString(status: CallStatus): string {
  return Object.entries(CallStatus).find(([, value]) => value === status)?.[0] ?? `Unknown(${status})`;
}

/** The error's name. */
export function callErrorToString(error: CallError): string {
  return Object.entries(CallError).find(([, value]) => value === error)?.[0] ?? `Unknown(${error})`;
}

/**
 * A voice call of a lobby, as the platform SDK's `Call` handle presents it: its status
 * (`Call::Status`, numbered as the platform SDK numbers it), why it changed (`Call::Error`),
 * who is in it, and the user's self mute and deafen. The signaling behind it (the gateway's
 * Voice State Update, the voice gateway) is `CallSignaling`'s; there is no audio in a browser
 * sandbox, so "Connected" means the signaling is complete.
 *
 * A call that reaches Disconnected stays there (spec: a call in the Disconnected state is
 * recovered by ending it and joining again): `client.endCall(lobbyId)`, then
 * `client.startCall(lobbyId)` for a new call.
 */
import type { CallSignaling } from './call-signaling';

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

/**
 * A lobby's voice call.
 * @example
 * const call = client.startCall(lobby.id);
 * call.setStatusChangedCallback((status) => console.log(callStatusToString(status)));
 * call.setParticipantChangedCallback((userId, added) => console.log(userId, added ? 'joined' : 'left'));
 */
export class Call {
  constructor(private readonly signaling: CallSignaling) {}

  /** The lobby the call is in: a lobby's call is addressed by the lobby's id as its channel. */
  getChannelId(): string {
    return this.signaling.lobbyId;
  }
  /** Lobby calls belong to no guild. */
  getGuildId(): null {
    return null;
  }
  /** The call's status. */
  getStatus(): CallStatus {
    return this.signaling.status;
  }
  /** The users in the call as the voice gateway tells them, the current user included once connected. */
  getParticipants(): string[] {
    return [...this.signaling.participants];
  }
  /** Whether the current user is self-muted in this call. */
  getSelfMute(): boolean {
    return this.signaling.self.self_mute;
  }
  /** Whether the current user is self-deafened in this call. */
  getSelfDeaf(): boolean {
    return this.signaling.self.self_deaf;
  }
  /** Self-mutes (or unmutes) the current user: a Voice State Update that every lobby member hears of. */
  setSelfMute(mute: boolean): void {
    this.signaling.setSelf({ self_mute: mute });
  }
  /** Self-deafens (or undeafens) the current user. */
  setSelfDeaf(deaf: boolean): void {
    this.signaling.setSelf({ self_deaf: deaf });
  }
  /** Called with each status change (null removes it). */
  setStatusChangedCallback(callback: CallStatusChangedCallback | null): void {
    this.signaling.statusCallback = callback;
  }
  /** Called when a user joins (`added`) or leaves the call (null removes it). */
  setParticipantChangedCallback(callback: ((userId: string, added: boolean) => void) | null): void {
    this.signaling.participantCallback = callback;
  }
  /** Called when another participant's speaking flags change (Speaking); `isPlayingSound` while any flag is set. */
  setSpeakingStatusChangedCallback(callback: ((userId: string, isPlayingSound: boolean) => void) | null): void {
    this.signaling.speakingCallback = callback;
  }
}

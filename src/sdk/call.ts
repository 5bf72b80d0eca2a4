/**
 * A voice call (a lobby's, a DM channel's, or a guild voice channel's), as the platform SDK's `Call` handle
 * presents it: its status (`Call::Status`, numbered as the platform SDK numbers it), why it
 * changed (`Call::Error`), who is in it and who speaks, the user's self mute and deafen, and
 * the controls that act on the audio: participant volumes, local mutes, the voice activity
 * threshold. The signaling behind it is `CallSignaling`'s; the audio (WebRTC between the
 * participants' pages, every frame end-to-end encrypted) is `src/media`'s.
 *
 * A call that reaches Disconnected stays there (spec: a call in the Disconnected state is
 * recovered by ending it and joining again): `client.endCall(channelId)`, then a new
 * `client.startCall(lobbyId)` (or `joinVoiceChannel`).
 */
import type { CallMediaStats } from '../media/call-media';
import type { VadThresholdSettings } from '../media/voice-activity';
import { isVadThreshold } from '../media/voice-activity';
import { SDK_PARTICIPANT_VOLUME_MAX } from '../platform/core/limits';
import type { VoiceStateHandle } from './call-roster';
import type { CallSignaling } from './call-signaling';
import { CallError, CallStatus, type CallStatusChangedCallback } from './call-status';
import { SdkError } from './errors';

/** A number from 0 to `max`, or a validation error naming the operation. */
function checkVolume(volume: unknown, max: number, operation: string): number {
  if (typeof volume !== 'number' || !(volume >= 0 && volume <= max))
    throw SdkError.validation(`${operation}() takes a volume from 0 to ${max}.`);
  return volume;
}

/**
 * A voice call.
 * @example
 * const call = client.startCall(lobby.id);
 * call.setStatusChangedCallback((status) => console.log(callStatusToString(status)));
 * call.setParticipantChangedCallback((userId, added) => console.log(userId, added ? 'joined' : 'left'));
 * call.setSpeakingStatusChangedCallback((userId, speaking) => ring(userId, speaking));
 */
export class Call {
  constructor(private readonly signaling: CallSignaling) {}

  /** The call's channel: the lobby's id for a lobby call, the DM channel's, or the guild voice channel's. */
  getChannelId(): string {
    return this.signaling.target.channelId;
  }
  /** The guild of a guild voice channel's call; null for a private call (lobby or DM). */
  getGuildId(): string | null {
    return this.signaling.target.guildId;
  }
  /** The call's status. */
  getStatus(): CallStatus {
    return this.signaling.status;
  }
  /** The users in the call as the voice gateway tells them, the current user included once connected. */
  getParticipants(): string[] {
    return [...this.signaling.roster.participants];
  }
  /** Whether the current user is self-muted in this call. */
  getSelfMute(): boolean {
    return this.signaling.self.self_mute;
  }
  /** Whether the current user is self-deafened in this call. */
  getSelfDeaf(): boolean {
    return this.signaling.self.self_deaf;
  }
  /** Self-mutes (or unmutes): the others hear nothing from this user at once, and every member hears of it (Voice State Update). */
  setSelfMute(mute: boolean): void {
    this.signaling.setSelf({ self_mute: mute });
  }
  /** Self-deafens (or undeafens): this user hears no one, and no one hears this user. */
  setSelfDeaf(deaf: boolean): void {
    this.signaling.setSelf({ self_deaf: deaf });
  }
  /** Called with each status change (null removes it). */
  setStatusChangedCallback(callback: CallStatusChangedCallback | null): void {
    this.signaling.statusCallback = callback;
  }
  /** Called when a user joins (`added`) or leaves the call (null removes it). */
  setParticipantChangedCallback(callback: ((userId: string, added: boolean) => void) | null): void {
    this.signaling.roster.participantCallback = callback;
  }
  /**
   * Called when a participant starts or stops speaking, by voice activity: the current user's
   * from their microphone's level, the others' from their Speaking (which their own voice
   * activity drives).
   */
  setSpeakingStatusChangedCallback(callback: ((userId: string, isPlayingSound: boolean) => void) | null): void {
    this.signaling.roster.speakingCallback = callback;
  }
  /** Whether `userId` speaks now. */
  isSpeaking(userId: string): boolean {
    return this.signaling.roster.speaking.has(userId);
  }
  /** Called when another participant's self mute or deafen changes (their voice state; null removes it). */
  setOnVoiceStateChangedCallback(callback: ((userId: string) => void) | null): void {
    this.signaling.roster.voiceStateCallback = callback;
  }
  /** Another participant's self mute and deafen, when their voice state has been heard. */
  getVoiceStateHandle(userId: string): VoiceStateHandle | undefined {
    const state = this.signaling.roster.voiceStates.get(userId);
    return state && { ...state };
  }

  /** Changes how loud `userId` plays for the current user only: 0 to 200, 100 unchanged. */
  setParticipantVolume(userId: string, volume: number): void {
    this.signaling.media.setVolume(userId, checkVolume(volume, SDK_PARTICIPANT_VOLUME_MAX, 'setParticipantVolume'));
  }
  /** `userId`'s playout volume for the current user. */
  getParticipantVolume(userId: string): number {
    return this.signaling.media.volume(userId);
  }
  /** Mutes `userId` for the current user only; no one else is affected. */
  setLocalMute(userId: string, mute: boolean): void {
    this.signaling.media.setLocalMute(userId, mute === true);
  }
  /** Whether the current user muted `userId` for themselves. */
  getLocalMute(userId: string): boolean {
    return this.signaling.media.localMute(userId);
  }
  /**
   * The voice activity threshold: automatic (above the noise floor), or `threshold` dBFS from
   * -100 to 0 (default -60). Speaking starts when the microphone's level crosses it.
   */
  setVADThreshold(automatic: boolean, threshold: number): void {
    if (!isVadThreshold(threshold))
      throw SdkError.validation('setVADThreshold() takes a threshold from -100 to 0 dBFS.');
    this.signaling.media.setVadThreshold({ automatic: automatic === true, vadThreshold: threshold });
  }
  /** The voice activity threshold's settings. */
  getVADThreshold(): VadThresholdSettings {
    return this.signaling.media.vadThreshold;
  }

  /** Whether this call carries audio (WebRTC in a browser), rather than signaling only. */
  hasAudio(): boolean {
    return this.signaling.media.carriesAudio;
  }
  /** Whether the current user encrypts every frame end to end (what Identify told the voice gateway). */
  isEndToEndEncrypted(): boolean {
    return this.signaling.media.e2ee;
  }
  /**
   * A participant's audio level now, in dBFS: the current user's microphone, or what arrives
   * from another participant before any volume (-Infinity while there is none).
   */
  getAudioLevel(userId: string): number {
    return this.signaling.media.media?.level(userId) ?? Number.NEGATIVE_INFINITY;
  }
  /** The level the speakers play now, in dBFS (every participant, after volumes and deafen). */
  getOutputLevel(): number {
    return this.signaling.media.media?.audio.outputLevel() ?? Number.NEGATIVE_INFINITY;
  }
  /** Per participant: the link's state, whether its frames are encrypted, and the frame counters (null without audio). */
  getMediaStats(): Promise<CallMediaStats | null> {
    return this.signaling.media.stats();
  }
  /**
   * The verification code of the current user and `userId`: 30 digits both of them see alike
   * unless a key was swapped between them (null without E2EE, or before their key arrived).
   */
  async getVerificationCode(userId: string): Promise<string | null> {
    return (await this.signaling.media.media?.verificationCode(userId)) ?? null;
  }
  /**
   * The next `count` frames from `userId` as they crossed the network, before decryption:
   * what anyone on the path would see. Null without E2EE or before the media started.
   */
  captureReceivedFrames(userId: string, count: number): Promise<ArrayBuffer[]> | null {
    return this.signaling.media.media?.captureFrames(userId, count) ?? null;
  }
}

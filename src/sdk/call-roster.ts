/**
 * Who is in a call and how they are, as the call's callbacks report it: the participants
 * (Clients Connect, Client Disconnect, the current user from Ready), who speaks (Speaking from
 * the others' voice activity, the current user's own), and the others' self mute and deafen
 * (their voice states). A callback that throws is logged, not fatal to the call.
 */
import type { SdkLogger } from './logger';

/** A participant's self mute and deafen, as their voice state says (`Call::GetVoiceStateHandle`). */
export interface VoiceStateHandle {
  selfMute: boolean;
  selfDeaf: boolean;
}

/** One call's participants. */
export class CallRoster {
  readonly participants = new Set<string>();
  readonly speaking = new Set<string>();
  readonly voiceStates = new Map<string, VoiceStateHandle>();
  participantCallback: ((userId: string, added: boolean) => void) | null = null;
  speakingCallback: ((userId: string, isPlayingSound: boolean) => void) | null = null;
  voiceStateCallback: ((userId: string) => void) | null = null;

  constructor(private readonly log: SdkLogger) {}

  /** `userId` joined (`added`) or left; true when that changed anything. Leaving stops their speaking. */
  participant(userId: string, added: boolean): boolean {
    if (added === this.participants.has(userId)) return false;
    if (added) this.participants.add(userId);
    else this.participants.delete(userId);
    if (!added) this.speakingChanged(userId, false);
    this.tell(() => this.participantCallback?.(userId, added));
    return true;
  }

  /** A participant started or stopped speaking. */
  speakingChanged(userId: string, speaking: boolean): void {
    if (speaking === this.speaking.has(userId)) return;
    if (speaking) this.speaking.add(userId);
    else this.speaking.delete(userId);
    this.tell(() => this.speakingCallback?.(userId, speaking));
  }

  /** Another participant's voice state: in this call (`inCall`) with these flags, or gone from it. */
  voiceState(userId: string, inCall: boolean, state: VoiceStateHandle): void {
    if (!inCall) {
      if (this.voiceStates.delete(userId)) this.tell(() => this.voiceStateCallback?.(userId));
      return;
    }
    const before = this.voiceStates.get(userId);
    if (before?.selfMute === state.selfMute && before.selfDeaf === state.selfDeaf) return;
    this.voiceStates.set(userId, { ...state });
    this.tell(() => this.voiceStateCallback?.(userId));
  }

  /** Runs a game callback; one that throws is logged. */
  tell(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.log.error(`A call callback threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/**
 * A lit reactive controller that shows a voice call in an element: who is in it, who speaks
 * (for speaking rings), how loud each participant is now, and their mute and deafen. It reads
 * the `Call` of the game SDK (a lobby call or a guild voice channel's) while its host is
 * connected, a few times a second, and asks the host to render only when what it shows changed;
 * it claims none of the call's callbacks, so the page keeps them for itself. The controls (mute,
 * deafen, join, leave) stay the `Call`'s and the `Client`'s own.
 *
 * @example
 * class VoiceChannel extends LitElement {
 *   voice = new VoiceCallController(this, () => client.getCall(channelId) ?? null);
 *   render() {
 *     const { participants } = this.voice.snapshot;
 *     return html`${participants.map((p) => html`<li class=${p.speaking ? 'ring' : ''}>${p.userId}</li>`)}`;
 *   }
 * }
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Call } from '../sdk/call';
import type { CallStatus } from '../sdk/call-status';

/** One participant as the controller shows them. */
export interface VoiceParticipantView {
  userId: string;
  /** Whether they speak now (voice activity). */
  speaking: boolean;
  /** Their level now in dBFS, rounded to whole dB (-Infinity while silent or unknown). */
  level: number;
  /** Self mute and deafen: the current user's own, the others' from their voice state (false when unheard). */
  selfMute: boolean;
  selfDeaf: boolean;
}

/** What the controller shows of a call (a fresh object whenever something changed). */
export interface VoiceCallSnapshot {
  /** No call, or the call's status. */
  status: CallStatus | null;
  participants: VoiceParticipantView[];
  /** Whether the current user encrypts every frame end to end. */
  e2ee: boolean;
}

const NO_CALL: VoiceCallSnapshot = Object.freeze({ status: null, participants: [], e2ee: false });

/**
 * What a call shows now, for `selfId` (the current user).
 * @example voiceCallSnapshot(call, me).participants.filter((p) => p.speaking)
 */
export function voiceCallSnapshot(call: Call | null, selfId: string | null): VoiceCallSnapshot {
  if (!call) return NO_CALL;
  const participants = call
    .getParticipants()
    .sort()
    .map((userId) => {
      const state =
        userId === selfId
          ? { selfMute: call.getSelfMute(), selfDeaf: call.getSelfDeaf() }
          : call.getVoiceStateHandle(userId);
      const level = call.getAudioLevel(userId);
      return {
        userId,
        speaking: call.isSpeaking(userId),
        level: Number.isFinite(level) ? Math.round(level) : Number.NEGATIVE_INFINITY,
        selfMute: state?.selfMute ?? false,
        selfDeaf: state?.selfDeaf ?? false,
      };
    });
  return { status: call.getStatus(), participants, e2ee: call.isEndToEndEncrypted() };
}

function same(a: VoiceCallSnapshot, b: VoiceCallSnapshot): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Shows a call in a lit element. */
export class VoiceCallController implements ReactiveController {
  #snapshot: VoiceCallSnapshot = NO_CALL;
  #timer: ReturnType<typeof setInterval> | null = null;

  /**
   * @param call the call to show now (null: none), asked on every reading, so that the host may
   *   join and leave calls without a new controller
   * @param selfId the current user's id (their own mute and deafen are the call's)
   */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly call: () => Call | null,
    private readonly selfId: () => string | null = () => null,
    private readonly intervalMs = 100,
  ) {
    host.addController(this);
  }

  /** What the host renders. */
  get snapshot(): VoiceCallSnapshot {
    return this.#snapshot;
  }

  /** Starts reading the call. */
  hostConnected(): void {
    this.refresh();
    this.#timer ??= setInterval(() => this.refresh(), this.intervalMs);
  }

  /** Stops reading it. */
  hostDisconnected(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Reads the call now (after a control changed it, say) and asks for a render if anything changed. */
  refresh(): void {
    const next = voiceCallSnapshot(this.call(), this.selfId());
    if (same(next, this.#snapshot)) return;
    this.#snapshot = next;
    this.host.requestUpdate();
  }
}

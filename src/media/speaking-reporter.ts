/**
 * A participant's own speaking, from their microphone: the level is measured every
 * `VOICE_VAD_INTERVAL_MS` and run through voice activity detection; each start and stop is
 * told to the page at once and to the call as Speaking (op 5), at most once per
 * `VOICE_SPEAKING_MIN_INTERVAL_MS` with the state at that time, since the voice gateway counts
 * every payload against its rate limit. While the microphone is muted no one speaks.
 */
import { SPEAKING_FLAGS, VOICE_OPCODES as OP } from '../gateway/voice-protocol';
import { VOICE_SPEAKING_MIN_INTERVAL_MS, VOICE_VAD_INTERVAL_MS } from '../platform/core/limits';
import { VoiceActivity } from './voice-activity';

/** What the reporter measures and where it tells. */
export interface SpeakingReporterOptions {
  /** The microphone's level now, in dBFS. */
  level(): number;
  /** Whether the microphone is muted (self mute or deafen). */
  muted(): boolean;
  /** Started or stopped speaking, told at once. */
  changed(speaking: boolean): void;
  /** Sends a voice gateway payload. */
  send(op: number, d: unknown): void;
  /** The participant's ssrc, named in Speaking. */
  ssrc: number;
}

/** One participant's speaking. */
export class SpeakingReporter {
  readonly activity = new VoiceActivity();
  #measuring: ReturnType<typeof setInterval> | null = null;
  #sent = false;
  #sentAt = Number.NEGATIVE_INFINITY;
  #pending: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: SpeakingReporterOptions) {}

  /** Starts measuring. */
  start(): void {
    this.#measuring ??= setInterval(() => this.#measure(), VOICE_VAD_INTERVAL_MS);
  }

  /** Stops measuring and telling. */
  stop(): void {
    if (this.#measuring) clearInterval(this.#measuring);
    if (this.#pending) clearTimeout(this.#pending);
    this.#measuring = this.#pending = null;
  }

  #measure(): void {
    const change = this.options.muted()
      ? this.activity.silence()
      : this.activity.update(this.options.level(), performance.now());
    if (change === null) return;
    this.options.changed(change);
    this.#send();
  }

  #send(): void {
    const speaking = this.activity.speaking;
    if (this.#measuring === null || this.#pending || speaking === this.#sent) return;
    const wait = this.#sentAt + VOICE_SPEAKING_MIN_INTERVAL_MS - performance.now();
    if (wait > 0) {
      this.#pending = setTimeout(() => {
        this.#pending = null;
        this.#send();
      }, wait);
      return;
    }
    this.#sent = speaking;
    this.#sentAt = performance.now();
    this.options.send(OP.SPEAKING, {
      speaking: speaking ? SPEAKING_FLAGS.MICROPHONE : 0,
      delay: 0,
      ssrc: this.options.ssrc,
    });
  }
}

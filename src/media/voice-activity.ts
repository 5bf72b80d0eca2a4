/**
 * Voice activity detection from measured levels: a participant speaks while the level of their
 * microphone is over the threshold, and stops once it has stayed under it for
 * `VOICE_VAD_HOLD_MS` (the gaps between words are not silence). The threshold is the public
 * SDK's `Call::SetVADThreshold(automatic, threshold)`: a level in dBFS from -100 to 0 (-60
 * unless set), or automatic: 20 dB over the noise floor, which follows the quietest levels at
 * once and rises slowly (half a dB per second), so that speaking does not lift it.
 *
 * Pure: levels and times come in, starts and stops come out.
 */
import {
  VOICE_VAD_HOLD_MS,
  VOICE_VAD_THRESHOLD_DEFAULT_DB,
  VOICE_VAD_THRESHOLD_MAX_DB,
  VOICE_VAD_THRESHOLD_MIN_DB,
} from '../platform/core/limits';

/** The voice activity threshold, as `Call::GetVADThreshold` reports it. */
export interface VadThresholdSettings {
  /** Whether the threshold follows the noise floor. */
  automatic: boolean;
  /** The threshold in dBFS (-100 to 0) when not automatic. */
  vadThreshold: number;
}

/** How far over the noise floor an automatic threshold sits. */
const AUTOMATIC_MARGIN_DB = 20;
/** How fast the noise floor may rise, in dB per second. */
const FLOOR_RISE_DB_PER_S = 0.5;

/**
 * The level of samples (-1 to 1) in dBFS: 20·log10 of their RMS, -Infinity for silence.
 * @example levelDb(analyserSamples) // -23.5
 */
export function levelDb(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  const rms = Math.sqrt(sum / Math.max(1, samples.length));
  return rms > 0 ? 20 * Math.log10(rms) : Number.NEGATIVE_INFINITY;
}

/** True when `threshold` is a valid manual threshold. */
export function isVadThreshold(threshold: unknown): threshold is number {
  return (
    typeof threshold === 'number' && threshold >= VOICE_VAD_THRESHOLD_MIN_DB && threshold <= VOICE_VAD_THRESHOLD_MAX_DB
  );
}

/**
 * One microphone's speaking state.
 * @example
 * const vad = new VoiceActivity();
 * const change = vad.update(levelDb(samples), performance.now()); // true, false or null
 */
export class VoiceActivity {
  #settings: VadThresholdSettings = { automatic: false, vadThreshold: VOICE_VAD_THRESHOLD_DEFAULT_DB };
  #speaking = false;
  #lastOver = Number.NEGATIVE_INFINITY;
  #floor: number | null = null;
  #lastUpdate: number | null = null;

  constructor(private readonly holdMs = VOICE_VAD_HOLD_MS) {}

  /** The threshold settings. */
  get settings(): VadThresholdSettings {
    return { ...this.#settings };
  }

  /** Whether the participant speaks now. */
  get speaking(): boolean {
    return this.#speaking;
  }

  /** Sets the threshold: automatic, or `threshold` dBFS (-100 to 0; the caller validates). */
  setThreshold(automatic: boolean, threshold: number): void {
    this.#settings = { automatic, vadThreshold: threshold };
  }

  /** The threshold in force now, in dBFS. */
  threshold(): number {
    if (!this.#settings.automatic) return this.#settings.vadThreshold;
    const floor = this.#floor ?? VOICE_VAD_THRESHOLD_MIN_DB - AUTOMATIC_MARGIN_DB;
    return Math.min(VOICE_VAD_THRESHOLD_MAX_DB, Math.max(VOICE_VAD_THRESHOLD_MIN_DB, floor + AUTOMATIC_MARGIN_DB));
  }

  /** A level measured at `now` (ms): the new state when it changed, else null. */
  update(level: number, now: number): boolean | null {
    this.#trackFloor(level, now);
    if (level >= this.threshold()) this.#lastOver = now;
    const speaking = now - this.#lastOver < this.holdMs;
    if (speaking === this.#speaking) return null;
    this.#speaking = speaking;
    return speaking;
  }

  /** Stops at once (the microphone was muted): false when the participant was speaking, else null. */
  silence(): boolean | null {
    this.#lastOver = Number.NEGATIVE_INFINITY;
    if (!this.#speaking) return null;
    this.#speaking = false;
    return false;
  }

  #trackFloor(level: number, now: number): void {
    const elapsed = this.#lastUpdate === null ? 0 : Math.max(0, now - this.#lastUpdate);
    this.#lastUpdate = now;
    const bounded = Math.max(level, VOICE_VAD_THRESHOLD_MIN_DB * 2);
    if (this.#floor === null || bounded < this.#floor) this.#floor = bounded;
    else this.#floor = Math.min(bounded, this.#floor + (FLOOR_RISE_DB_PER_S * elapsed) / 1000);
  }
}

// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { VOICE_VAD_HOLD_MS, VOICE_VAD_THRESHOLD_DEFAULT_DB } from '../../../src/platform/core/limits';
import { isVadThreshold, levelDb, VoiceActivity } from '../../../src/media/voice-activity';

/** Feeds levels 20 ms apart from `start`; returns the changes with their times. */
function feed(vad: VoiceActivity, levels: number[], start = 0): string[] {
  const changes: string[] = [];
  levels.forEach((level, i) => {
    const change = vad.update(level, start + i * 20);
    if (change !== null) changes.push(`${change ? 'start' : 'stop'}@${start + i * 20}`);
  });
  return changes;
}

describe('voice activity: speaking follows the measured level, not the joins', () => {
  it('the level in dBFS is 20·log10 of the RMS; silence is -Infinity', () => {
    expect(levelDb(new Float32Array([0.5, -0.5, 0.5, -0.5]))).toBeCloseTo(-6.02, 1);
    expect(levelDb(new Float32Array(128))).toBe(Number.NEGATIVE_INFINITY);
  });

  it('the threshold defaults to -60 dB, manual, and takes -100 to 0', () => {
    expect(new VoiceActivity().settings).toEqual({ automatic: false, vadThreshold: VOICE_VAD_THRESHOLD_DEFAULT_DB });
    expect([
      isVadThreshold(-100),
      isVadThreshold(0),
      isVadThreshold(-100.5),
      isVadThreshold(1),
      isVadThreshold('x'),
    ]).toEqual([true, true, false, false, false]);
  });

  it('a level over the threshold starts speaking; under it for the hold time stops it', () => {
    const vad = new VoiceActivity();
    const quiet = Array(10).fill(-90);
    const loud = Array(5).fill(-20);
    const holdSamples = VOICE_VAD_HOLD_MS / 20;
    const changes = feed(vad, [...quiet, ...loud, ...Array(holdSamples + 2).fill(-90)]);
    expect(changes).toEqual([`start@200`, `stop@${280 + VOICE_VAD_HOLD_MS}`]);
  });

  it('short gaps under the threshold (beeps, syllables) do not stop speaking', () => {
    const vad = new VoiceActivity();
    const beep = [-10, -20, -40, -70, -90, -120, -150, -170];
    const changes = feed(vad, [...beep, ...beep, ...beep]);
    expect(changes).toEqual(['start@0']);
  });

  it('a higher manual threshold ignores what a lower one hears', () => {
    const vad = new VoiceActivity();
    vad.setThreshold(false, -30);
    expect(feed(vad, Array(10).fill(-45))).toEqual([]);
    expect(feed(vad, [-25], 400)).toEqual(['start@400']);
  });

  it('an automatic threshold sits over the noise floor: steady noise is not speech, a voice over it is', () => {
    const vad = new VoiceActivity();
    vad.setThreshold(true, VOICE_VAD_THRESHOLD_DEFAULT_DB);
    // Room noise at -50 dB: a manual -60 threshold would call it speech.
    expect(feed(vad, Array(100).fill(-50))).toEqual([]);
    expect(vad.threshold()).toBeCloseTo(-30, 0);
    expect(feed(vad, [-12], 2000)).toEqual(['start@2000']);
  });

  it('silence() stops a speaker at once (a muted microphone)', () => {
    const vad = new VoiceActivity();
    feed(vad, [-10]);
    expect(vad.silence()).toBe(false);
    expect(vad.speaking).toBe(false);
    expect(vad.silence()).toBeNull();
  });
});

// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VOICE_SPEAKING_MIN_INTERVAL_MS } from '../../../src/platform/core/limits';
import { SpeakingReporter } from '../../../src/media/speaking-reporter';

afterEach(() => vi.useRealTimers());

/** A reporter over a level and a mute the test sets; what it told and sent. */
function reporter() {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
  const state = { level: -120, muted: false };
  const told: boolean[] = [];
  const sent: { op: number; d: any }[] = [];
  const r = new SpeakingReporter({
    level: () => state.level,
    muted: () => state.muted,
    changed: (speaking) => told.push(speaking),
    send: (op, d) => sent.push({ op, d }),
    ssrc: 7,
  });
  r.start();
  return { r, state, told, sent };
}

describe('Speaking (op 5) from the measured microphone level, paced for the voice gateway', () => {
  it('a level over the threshold is told at once and sent as Speaking with the Microphone flag and the ssrc', () => {
    const { state, told, sent } = reporter();
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([]);
    state.level = -10;
    vi.advanceTimersByTime(40);
    expect(told).toEqual([true]);
    expect(sent).toEqual([{ op: 5, d: { speaking: 1, delay: 0, ssrc: 7 } }]);
  });

  it(`at most one Speaking per ${VOICE_SPEAKING_MIN_INTERVAL_MS} ms: the state at that time is what goes`, () => {
    const { state, told, sent } = reporter();
    state.level = -10;
    vi.advanceTimersByTime(40);
    state.level = -120;
    vi.advanceTimersByTime(600);
    state.level = -10;
    vi.advanceTimersByTime(100);
    // Stopped and started again within the interval: told both times, nothing more sent.
    expect(told).toEqual([true, false, true]);
    expect(sent.map((p) => p.d.speaking)).toEqual([1]);
    state.level = -120;
    vi.advanceTimersByTime(600);
    expect(sent.map((p) => p.d.speaking)).toEqual([1, 0]);
  });

  it('a muted microphone stops speaking at once, whatever its level', () => {
    const { state, told, sent } = reporter();
    state.level = -10;
    vi.advanceTimersByTime(40);
    state.muted = true;
    vi.advanceTimersByTime(VOICE_SPEAKING_MIN_INTERVAL_MS + 40);
    expect(told).toEqual([true, false]);
    expect(sent.map((p) => p.d.speaking)).toEqual([1, 0]);
  });

  it('stop() ends measuring and sending', () => {
    const { r, state, sent } = reporter();
    r.stop();
    state.level = -10;
    vi.advanceTimersByTime(2000);
    expect(sent).toEqual([]);
  });
});

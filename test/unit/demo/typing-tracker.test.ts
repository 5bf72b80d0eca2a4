// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TypingTracker, typingText } from '../../../demo/shell/typing-tracker';
import { TYPING_INDICATOR_MS } from '../../../src/platform/core/limits';

describe('who is typing (TYPING_START shows for 10 s, or until the message arrives)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows a typist for TYPING_INDICATOR_MS after their last TYPING_START, and says when they stop', () => {
    const tracker = new TypingTracker(() => Date.now());
    let changes = 0;
    tracker.addEventListener('change', () => changes++);
    tracker.started('c1', 'bob');
    expect(tracker.typists('c1')).toEqual(['bob']);
    vi.advanceTimersByTime(TYPING_INDICATOR_MS - 1000);
    tracker.started('c1', 'bob');
    vi.advanceTimersByTime(TYPING_INDICATOR_MS - 1000);
    expect(tracker.typists('c1')).toEqual(['bob']);
    vi.advanceTimersByTime(1100);
    expect(tracker.typists('c1')).toEqual([]);
    expect(changes).toBe(2);
  });

  it("a typist's message ends their indicator at once; other channels are not touched", () => {
    const tracker = new TypingTracker(() => Date.now());
    tracker.started('c1', 'bob');
    tracker.started('c2', 'bob');
    tracker.stopped('c1', 'bob');
    expect(tracker.typists('c1')).toEqual([]);
    expect(tracker.typists('c2')).toEqual(['bob']);
  });

  it('says it in words', () => {
    expect(typingText([])).toBe('');
    expect(typingText(['Bob'])).toBe('Bob is typing…');
    expect(typingText(['Bob', 'Chen'])).toBe('Bob and Chen are typing…');
    expect(typingText(['A', 'B', 'C'])).toBe('A, B and C are typing…');
    expect(typingText(['A', 'B', 'C', 'D'])).toBe('Several people are typing…');
  });
});

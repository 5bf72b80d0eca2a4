// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LogTail } from '../../../src/gateway/log-tail';
import type { EventRecord } from '../../../src/store/schema';
import { placeholderRecord } from '../store/placeholder-events';

const event = (seq: number): EventRecord => placeholderRecord({ seq, type: 'X', data: seq, created_at: 0 });
const events = (...seqs: number[]) => seqs.map(event);
const seqsOf = (list: EventRecord[] | undefined) => list?.map((e) => e.seq);

describe('LogTail: the newest events of the log as writers announced them, always a complete range', () => {
  it('knows nothing before an announcement: every read goes to the log', () => {
    expect(new LogTail(10).after(0, 10)).toBeUndefined();
  });

  it('serves the events after a position inside the range, up to the limit', () => {
    const tail = new LogTail(10);
    tail.heard({ type: 'events', seq: 5, after: 3, events: events(4, 5) });
    tail.heard({ type: 'events', seq: 8, after: 5, events: events(6, 7, 8) });
    expect(seqsOf(tail.after(3, 10))).toEqual([4, 5, 6, 7, 8]);
    expect(seqsOf(tail.after(5, 2))).toEqual([6, 7]);
    expect(seqsOf(tail.after(8, 10))).toEqual([]);
    // Before the range: the tail cannot tell what the log holds there.
    expect(tail.after(2, 10)).toBeUndefined();
  });

  it('a write announced out of order starts a new range: nothing in between is taken as absent', () => {
    const tail = new LogTail(10);
    tail.heard({ type: 'events', seq: 5, after: 4, events: events(5) });
    // 6 was committed by another context whose announcement is late: 7 does not continue 5.
    tail.heard({ type: 'events', seq: 7, after: 6, events: events(7) });
    expect(tail.after(5, 10)).toBeUndefined();
    expect(seqsOf(tail.after(6, 10))).toEqual([7]);
    // The late announcement is older than the range: it changes nothing.
    tail.heard({ type: 'events', seq: 6, after: 5, events: events(6) });
    expect(seqsOf(tail.after(6, 10))).toEqual([7]);
  });

  it('an announcement without its events (a large write) or without where they start leaves the reads to the log', () => {
    const tail = new LogTail(10);
    tail.heard({ type: 'events', seq: 5, after: 4, events: events(5) });
    tail.heard({ type: 'events', seq: 50, after: 5 });
    expect(tail.after(5, 10)).toBeUndefined();
    expect(seqsOf(tail.after(50, 10))).toEqual([]);
    tail.heard({ type: 'events', seq: 51 });
    expect(tail.after(50, 10)).toBeUndefined();
  });

  it('keeps at most its capacity: the oldest leave the range', () => {
    const tail = new LogTail(3);
    tail.heard({ type: 'events', seq: 2, after: 0, events: events(1, 2) });
    tail.heard({ type: 'events', seq: 4, after: 2, events: events(3, 4) });
    expect(tail.after(0, 10)).toBeUndefined();
    expect(seqsOf(tail.after(1, 10))).toEqual([2, 3, 4]);
    tail.heard({ type: 'events', seq: 9, after: 4, events: events(5, 6, 7, 8, 9) });
    expect(tail.after(5, 10)).toBeUndefined();
    expect(seqsOf(tail.after(6, 10))).toEqual([7, 8, 9]);
  });

  it('clear() forgets the range (a sandbox reset emptied the log)', () => {
    const tail = new LogTail(10);
    tail.heard({ type: 'events', seq: 2, after: 0, events: events(1, 2) });
    tail.clear();
    expect(tail.after(0, 10)).toBeUndefined();
  });
});

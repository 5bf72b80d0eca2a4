// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { findResumePoint, prunableAfter, ResumeMarks, storeResumeBatch } from '../../../src/gateway/resume-marks';
import {
  GATEWAY_RESUME_ANCHOR_EVERY,
  GATEWAY_RESUME_BATCHES_MAX,
  GATEWAY_RESUME_MARKS_MAX,
} from '../../../src/platform/core/limits';
import { keyRange } from '../../../src/store/port';
import { openPlatformStorage } from '../../../src/store/indexeddb/open';
import type { PlatformStorage } from '../../../src/store/schema';

let counter = 0;
const open = () => openPlatformStorage(`resume-marks-${process.pid}-${++counter}`);

/** What each database's next write may prune, carried from one write to the next as the gateway does. */
const prunable = new WeakMap<PlatformStorage, number | undefined>();
/** The batches each start of the gateway wrote, by database and start. */
const written = new WeakMap<PlatformStorage, Map<string, number>>();

/** One write of the gateway's start `start`: the points `sessions` numbered since the last. */
async function store(db: PlatformStorage, sessions: ResumeMarks[], start = 'start-1') {
  const starts = written.get(db) ?? new Map<string, number>();
  written.set(db, starts);
  const n = (starts.get(start) ?? 0) + 1;
  starts.set(start, n);
  const id = await db.write(['gateway_resume_batches'], (tx) =>
    storeResumeBatch(tx.store('gateway_resume_batches'), sessions, {
      start,
      n,
      pruneThrough: prunable.get(db),
      issued: () => tx.commit(),
    }),
  );
  prunable.set(db, prunableAfter(id));
}

/** How many index entries of `by_session_point` (anchors) the store holds for `sessionId`. */
async function anchorsOf(db: PlatformStorage, sessionId: string): Promise<number> {
  return db.countFromIndex(
    'gateway_resume_batches',
    'by_session_point',
    keyRange.bound([sessionId, -Infinity], [sessionId, Infinity]),
  );
}

describe('resume points: one record per write of the gateway (gateway_resume_batches)', () => {
  it('a dispatch to 50 sessions stores one record, and each session finds its own point in it', async () => {
    const db = await open();
    const sessions = Array.from({ length: 50 }, (_, i) => new ResumeMarks(`s${i}`));
    sessions.forEach((marks, i) => marks.add(1, 100, 0, i === 0 ? ['hidden-channel'] : undefined));
    await store(db, sessions);
    expect(await db.count('gateway_resume_batches')).toBe(1);
    expect(await findResumePoint(db, 's0', 1)).toEqual({
      mark: { session_id: 's0', s: 1, after: 100, skip: 0, hidden: ['hidden-channel'] },
      last: 1,
    });
    expect(await findResumePoint(db, 's49', 1)).toEqual({
      mark: { session_id: 's49', s: 1, after: 100, skip: 0 },
      last: 1,
    });
    expect(await findResumePoint(db, 'nobody', 1)).toEqual({ mark: undefined, last: 0 });
    db.close();
  });

  it('finds a point inside a part of several, and the last point over all of a session’s batches', async () => {
    const db = await open();
    const a = new ResumeMarks('a');
    for (const s of [1, 2, 3]) a.add(s, 10, s - 1);
    await store(db, [a]);
    a.add(4, 11, 0);
    await store(db, [a]);
    expect(await findResumePoint(db, 'a', 2)).toEqual({ mark: { session_id: 'a', s: 2, after: 10, skip: 1 }, last: 4 });
    expect((await findResumePoint(db, 'a', 4)).mark?.after).toBe(11);
    expect(await findResumePoint(db, 'a', 5)).toEqual({ mark: undefined, last: 4 });
    db.close();
  });

  it('a Resume that went back to s takes the points of the old numbering after s out of their batches', async () => {
    const db = await open();
    const a = new ResumeMarks('a');
    const b = new ResumeMarks('b');
    for (const s of [1, 2, 3]) a.add(s, 10 + s, 0);
    b.add(1, 11, 0);
    await store(db, [a, b]);
    a.add(4, 14, 0);
    await store(db, [a]);
    a.resumedAt(2);
    a.add(3, 20, 0);
    await store(db, [a]);
    expect(await findResumePoint(db, 'a', 3)).toEqual({ mark: { session_id: 'a', s: 3, after: 20, skip: 0 }, last: 3 });
    expect(await findResumePoint(db, 'a', 4)).toEqual({ mark: undefined, last: 3 });
    expect((await findResumePoint(db, 'a', 2)).mark?.after).toBe(12);
    // Another session's points in the same batches stay.
    expect((await findResumePoint(db, 'b', 1)).mark?.after).toBe(11);
    // The batch left with no point is gone.
    expect(await db.count('gateway_resume_batches')).toBe(2);
    db.close();
  });

  it('points before what a heartbeat acknowledged, or more than GATEWAY_RESUME_MARKS_MAX behind the last, are refused', async () => {
    const db = await open();
    const a = new ResumeMarks('a');
    for (let s = 1; s <= 5; s++) a.add(s, s, 0);
    await store(db, [a]);
    a.acknowledge(3);
    a.add(6, 6, 0);
    await store(db, [a]);
    expect((await findResumePoint(db, 'a', 2)).mark).toBeUndefined();
    expect((await findResumePoint(db, 'a', 3)).mark?.after).toBe(3);
    const far = new ResumeMarks('far');
    far.add(1, 1, 0);
    await store(db, [far]);
    far.add(GATEWAY_RESUME_MARKS_MAX + 1, 2, 0);
    await store(db, [far]);
    expect((await findResumePoint(db, 'far', 1)).mark).toBeUndefined();
    expect((await findResumePoint(db, 'far', GATEWAY_RESUME_MARKS_MAX + 1)).mark?.after).toBe(2);
    db.close();
  });

  it(`keeps the newest GATEWAY_RESUME_BATCHES_MAX (${GATEWAY_RESUME_BATCHES_MAX}) batches`, async () => {
    const db = await open();
    const a = new ResumeMarks('a');
    const total = GATEWAY_RESUME_BATCHES_MAX + 200;
    // As many batches as a busy gateway writes, put straight in (storing each through the gateway would take long).
    await db.write(['gateway_resume_batches'], async (tx) => {
      const batches = tx.store('gateway_resume_batches');
      for (let s = 1; s < total; s++)
        void batches.put({
          parts: [{ session_id: 'a', from: 0, points: [{ s, after: s, skip: 0 }] }],
          keys: [['a', s]],
        });
    });
    // A batch that falls on a pruning step lets the next one delete what is older.
    for (let s = total; s < total + 65; s++) {
      a.add(s, s, 0);
      await store(db, [a]);
    }
    const kept = await db.getAllKeys('gateway_resume_batches');
    expect(kept.length).toBeLessThanOrEqual(GATEWAY_RESUME_BATCHES_MAX + 64);
    expect(kept.length).toBeGreaterThanOrEqual(GATEWAY_RESUME_BATCHES_MAX);
    expect((await findResumePoint(db, 'a', 1)).mark).toBeUndefined();
    db.close();
  });

  it(`keys a session's part in the index only every GATEWAY_RESUME_ANCHOR_EVERY (${GATEWAY_RESUME_ANCHOR_EVERY}) batches, and a Resume finds every point and the last`, async () => {
    const db = await open();
    const a = new ResumeMarks('a');
    const b = new ResumeMarks('b');
    const count = GATEWAY_RESUME_ANCHOR_EVERY * 2 + 3;
    for (let s = 1; s <= count; s++) {
      a.add(s, 100 + s, 0);
      // Another session, in every other batch: its parts are found among the same batches.
      if (s % 2 === 0) b.add(s / 2, 100 + s, 0);
      await store(db, [a, b]);
    }
    // A fan-out's put keys the sessions due for an anchor, not every session it holds.
    expect(await anchorsOf(db, 'a')).toBe(3);
    expect(await anchorsOf(db, 'b')).toBe(3);
    for (let s = 1; s <= count; s++) {
      expect(await findResumePoint(db, 'a', s)).toEqual({
        mark: { session_id: 'a', s, after: 100 + s, skip: 0 },
        last: count,
      });
    }
    for (let s = 1; s <= (count - 1) / 2; s++)
      expect((await findResumePoint(db, 'b', s)).mark?.after).toBe(100 + 2 * s);
    expect(await findResumePoint(db, 'a', count + 1)).toEqual({ mark: undefined, last: count });
    db.close();
  });

  it('a Resume that went back into a part that is no anchor takes the later points out, anchors the new numbering and finds both', async () => {
    const db = await open();
    const a = new ResumeMarks('a');
    const last = GATEWAY_RESUME_ANCHOR_EVERY + 4;
    for (let s = 1; s <= last; s++) {
      a.add(s, 10 * s, 0);
      await store(db, [a]);
    }
    // Back to 5 (in the part of batch 5, which follows the anchor of batch 1), renumbered from 6.
    a.resumedAt(5);
    a.add(6, 999, 0);
    await store(db, [a]);
    expect(await findResumePoint(db, 'a', 6)).toEqual({
      mark: { session_id: 'a', s: 6, after: 999, skip: 0 },
      last: 6,
    });
    expect((await findResumePoint(db, 'a', 5)).mark?.after).toBe(50);
    expect((await findResumePoint(db, 'a', 1)).mark?.after).toBe(10);
    for (const gone of [7, GATEWAY_RESUME_ANCHOR_EVERY + 1, last])
      expect((await findResumePoint(db, 'a', gone)).mark).toBeUndefined();
    // The old numbering's points are out of every batch; the new one keeps going.
    const points = (await db.getAll('gateway_resume_batches')).flatMap((batch) =>
      batch.parts.flatMap((p) => p.points.map((m) => m.s)),
    );
    expect(points.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    a.add(7, 1000, 0);
    await store(db, [a]);
    expect(await findResumePoint(db, 'a', 7)).toEqual({
      mark: { session_id: 'a', s: 7, after: 1000, skip: 0 },
      last: 7,
    });
    db.close();
  });

  it('two starts of the gateway writing at once: each session finds its points among the other start’s batches, also after moving to the other start', async () => {
    const db = await open();
    const a = new ResumeMarks('a');
    const b = new ResumeMarks('b');
    const rounds = GATEWAY_RESUME_ANCHOR_EVERY + 3;
    for (let s = 1; s <= rounds; s++) {
      a.add(s, s, 0);
      await store(db, [a], 'start-1');
      // Batches interleave by id; the other start writes two for each of this one's.
      for (const k of [0, 1]) {
        b.add(2 * s - 1 + k, 1000 + s, k);
        await store(db, [b], 'start-2');
      }
    }
    for (let s = 1; s <= rounds; s++) expect((await findResumePoint(db, 'a', s)).mark?.after).toBe(s);
    for (let s = 1; s <= 2 * rounds; s++)
      expect((await findResumePoint(db, 'b', s)).mark?.after).toBe(1000 + Math.ceil(s / 2));
    expect((await findResumePoint(db, 'a', 1)).last).toBe(rounds);
    expect((await findResumePoint(db, 'b', 1)).last).toBe(2 * rounds);
    // Session a resumes on the other start (its own is gone), from a point that is no anchor.
    const moved = new ResumeMarks('a');
    moved.resumedAt(rounds - 1);
    moved.add(rounds, 5000, 0);
    await store(db, [moved], 'start-2');
    expect(await findResumePoint(db, 'a', rounds)).toEqual({
      mark: { session_id: 'a', s: rounds, after: 5000, skip: 0 },
      last: rounds,
    });
    expect((await findResumePoint(db, 'a', rounds - 1)).mark?.after).toBe(rounds - 1);
    db.close();
  });

  it('after a write that failed, the session’s next part is an anchor', () => {
    const a = new ResumeMarks('a');
    a.add(1, 1, 0);
    expect(a.takePart(1)?.anchor).toBe(true);
    a.add(2, 2, 0);
    expect(a.takePart(2)?.anchor).toBe(false);
    a.unstored();
    a.add(3, 3, 0);
    expect(a.takePart(3)?.anchor).toBe(true);
    a.add(3 + GATEWAY_RESUME_ANCHOR_EVERY, 4, 0);
    expect(a.takePart(3 + GATEWAY_RESUME_ANCHOR_EVERY)?.anchor).toBe(true);
  });
});

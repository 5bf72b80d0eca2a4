// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { findResumePoint, prunableAfter, ResumeMarks, storeResumeBatch } from '../../../src/gateway/resume-marks';
import { GATEWAY_RESUME_BATCHES_MAX, GATEWAY_RESUME_MARKS_MAX } from '../../../src/platform/core/limits';
import { openPlatformStorage } from '../../../src/store/indexeddb/open';
import type { PlatformStorage } from '../../../src/store/schema';

let counter = 0;
const open = () => openPlatformStorage(`resume-marks-${process.pid}-${++counter}`);

/** What each database's next write may prune, carried from one write to the next as the gateway does. */
const prunable = new WeakMap<PlatformStorage, number | undefined>();

/** One write of the gateway: the points `sessions` numbered since the last. */
async function store(db: PlatformStorage, sessions: ResumeMarks[]) {
  const id = await db.write(['gateway_resume_batches'], (tx) =>
    storeResumeBatch(tx.store('gateway_resume_batches'), sessions, {
      pruneThrough: prunable.get(db),
      issued: () => tx.commit(),
    }),
  );
  prunable.set(db, prunableAfter(id));
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
});

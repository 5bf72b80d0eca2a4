// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { findResumePoint, ResumeMarks } from '../../../src/gateway/resume-marks';
import { GATEWAY_RESUME_MARKS_MAX } from '../../../src/platform/core/limits';
import { openPlatformStorage } from '../../../src/store/indexeddb/open';
import { keyRange } from '../../../src/store/port';

let counter = 0;

describe('resume points (gateway_resume_marks)', () => {
  it(`a session keeps at most GATEWAY_RESUME_MARKS_MAX (${GATEWAY_RESUME_MARKS_MAX}) of them, the newest`, async () => {
    const db = await openPlatformStorage(`resume-marks-${process.pid}-${++counter}`);
    const marks = new ResumeMarks('s1');
    const other = new ResumeMarks('s2');
    other.add(1, 10, 0);
    const total = GATEWAY_RESUME_MARKS_MAX + 250;
    for (let s = 1; s <= total; s += 50) {
      for (let i = s; i < s + 50; i++) marks.add(i, 100 + i, 0);
      await db.write(['gateway_sessions', 'gateway_resume_marks'], (tx) =>
        Promise.all([
          ...marks.write(tx.store('gateway_resume_marks'), s + 49),
          ...other.write(tx.store('gateway_resume_marks'), 1),
        ]),
      );
    }
    const keys = await db.getAllKeys('gateway_resume_marks', keyRange.bound(['s1', 0], ['s1', Infinity]));
    expect(keys).toHaveLength(GATEWAY_RESUME_MARKS_MAX);
    expect(keys[0][1]).toBe(total - GATEWAY_RESUME_MARKS_MAX + 1);
    expect(await findResumePoint(db, 's1', total)).toEqual({
      mark: { session_id: 's1', s: total, after: 100 + total, skip: 0 },
      last: total,
    });
    expect((await findResumePoint(db, 's1', 1)).mark).toBeUndefined();
    // Another session's points are its own.
    expect(await findResumePoint(db, 's2', 1)).toEqual({
      mark: { session_id: 's2', s: 1, after: 10, skip: 0 },
      last: 1,
    });
    db.close();
  });
});

// @vitest-environment node
/**
 * A write's guard (a request's exactly-once check, `sw/idempotency.ts`) runs beside the write's
 * body in one transaction. When it throws `WriteAgain`, the write runs once more from the start:
 * nothing of the first run is stored, appended or announced.
 */
import { describe, expect, it } from 'vitest';
import type { Announcement } from '../../../src/platform/core/announcements';
import { createPlatformContext, type PlatformContext } from '../../../src/platform/core/context';
import type { RequestRecord } from '../../../src/store/records/requests';
import { readEventsAfter } from '../../../src/store/event-log';
import { type WriteGuard, type WriteTx, WriteAgain, write } from '../../../src/store/write';
import { placeholderEvent } from './placeholder-events';
import { openTestStorage } from './test-storage';

let dbCounter = 0;

async function context(): Promise<PlatformContext & { announcements: Announcement[] }> {
  const db = await openTestStorage(`write-guard-test-${process.pid}-${++dbCounter}`);
  const announcements: Announcement[] = [];
  const ctx = await createPlatformContext({ db, workerId: 31, announce: (m) => announcements.push(m) });
  return { ...ctx, announcements };
}

const record = (key: string, at: number): RequestRecord => ({ key, hash: key, instance: 'start-a', at });

/** A guard that claims `key` with `add`, and on finding it taken has the write run again and replaces it. */
function claimingGuard(key: string): WriteGuard & { runs: number } {
  let taken = false;
  return {
    stores: ['request_records'],
    runs: 0,
    async check(tx: WriteTx) {
      this.runs++;
      const records = tx.store('request_records');
      if (taken) {
        await records.put(record(key, 2));
        return tx.commit();
      }
      const added = records.add(record(key, 2));
      tx.commit();
      try {
        await added;
      } catch (error) {
        if (!(error instanceof Error && error.name === 'ConstraintError')) throw error;
        taken = true;
        throw new WriteAgain();
      }
    },
  };
}

describe('write(): a guard that asks for the write again', () => {
  it('a key the guard claims is taken: the first run leaves nothing, the body runs again and its result is the write’s', async () => {
    const ctx = await context();
    await ctx.db.put('request_records', record('k', 1));
    const guard = claimingGuard('k');
    let bodyRuns = 0;
    const result = await write({ ...ctx, guard }, ['users'], async (tx, emit) => {
      bodyRuns++;
      const name = `run ${bodyRuns}`;
      const added = tx.store('users').put({ id: name } as never);
      emit(placeholderEvent('A', name));
      tx.commit();
      await added;
      return name;
    });
    expect(result).toBe('run 2');
    expect([guard.runs, bodyRuns]).toEqual([2, 2]);
    expect((await ctx.db.getAll('users')).map((u) => u.id)).toEqual(['run 2']);
    expect((await readEventsAfter(ctx.db, 0)).map((e) => e.data)).toEqual(['run 2']);
    expect(ctx.announcements).toHaveLength(1);
    expect(await ctx.db.get('request_records', 'k')).toEqual(record('k', 2));
  });

  it('a key the guard claims is free: one run, the body’s write and the guard’s record stored together', async () => {
    const ctx = await context();
    const guard = claimingGuard('k');
    let bodyRuns = 0;
    await write({ ...ctx, guard }, ['users'], async (tx) => {
      bodyRuns++;
      await tx.store('users').put({ id: 'u' } as never);
    });
    expect([guard.runs, bodyRuns]).toEqual([1, 1]);
    expect(await ctx.db.get('request_records', 'k')).toEqual(record('k', 2));
    expect((await ctx.db.getAll('users')).map((u) => u.id)).toEqual(['u']);
  });

  it('an error of the body that is not the guard’s still fails the write once, and stores nothing', async () => {
    const ctx = await context();
    const guard = claimingGuard('k');
    const failing = write({ ...ctx, guard }, ['users'], async (tx) => {
      await tx.store('users').put({ id: 'u' } as never);
      throw new Error('the body refuses');
    });
    await expect(failing).rejects.toThrow('the body refuses');
    expect(guard.runs).toBe(1);
    expect(await ctx.db.getAll('users')).toEqual([]);
    expect(await ctx.db.getAll('request_records')).toEqual([]);
  });
});

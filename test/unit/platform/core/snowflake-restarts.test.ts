// @vitest-environment node
/**
 * CONTRACT §2 and issue 2: snowflakes stay unique and increasing across the service worker, the
 * shared worker and restarts of either, whatever the sandbox clock does. Each "context" here is
 * what `createPlatformContext` starts: `startSnowflakeGenerator` on the shared database.
 */
import { describe, expect, it } from 'vitest';
import { Clock, REAL_TIME, type ClockState } from '../../../../src/platform/core/clock';
import { createPlatformContext, startSnowflakeGenerator } from '../../../../src/platform/core/context';
import { resetPlatform } from '../../../../src/platform/core/fixtures';
import {
  PLATFORM_EPOCH,
  SNOWFLAKE_LEASE_MS,
  SNOWFLAKE_WORKERS,
  SnowflakeGenerator,
} from '../../../../src/platform/core/snowflake';
import { loadClockState, saveClockState, startSnowflakeLease } from '../../../../src/store/meta';
import { openPlatformStorage } from '../../../../src/store/indexeddb/open';
import type { PlatformStorage } from '../../../../src/store/schema';

const T = Date.parse('2026-02-23T12:00:00.000Z');
const DAY = 86_400_000;
let dbCounter = 0;
const dbName = () => `snowflake-restarts-${process.pid}-${++dbCounter}`;

const fields = (id: string) => {
  const n = BigInt(id);
  return {
    time: Number(n >> 22n) + PLATFORM_EPOCH,
    worker: Number((n >> 17n) & 31n),
    process: Number((n >> 12n) & 31n),
  };
};
const max = (ids: string[]) => ids.reduce((a, b) => (BigInt(b) > BigInt(a) ? b : a), '0');
const expectStrictlyIncreasing = (ids: string[], what: string) => {
  for (let i = 1; i < ids.length; i++)
    expect(BigInt(ids[i]) > BigInt(ids[i - 1]), `${what}: id ${i} after id ${i - 1}`).toBe(true);
};
/** A read of the meta store runs after every read-write transaction created before it. */
const settle = async (db: PlatformStorage) => {
  await db.get('meta', 'snowflake');
};

/** A context's clock: the persisted state over a fake real time. */
async function contextClock(db: PlatformStorage, real: { now: number }): Promise<Clock> {
  return new Clock(await loadClockState(db), () => real.now);
}

describe('snowflakes across restarts (CONTRACT §2: unique and increasing across contexts and restarts)', () => {
  it('a context restarted within the same millisecond starts above every id of the one before it', async () => {
    const db = await openPlatformStorage(dbName());
    const clock = new Clock({ frozenAt: T });
    const first = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.serviceWorker, clock);
    const before = Array.from({ length: 100 }, () => first.next());
    const second = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.serviceWorker, clock);
    const after = Array.from({ length: 100 }, () => second.next());
    expectStrictlyIncreasing([...before, ...after], 'restart in the same ms');
    expect(fields(after[0]).process).not.toBe(fields(before[0]).process);
    db.close();
  });

  it('after a run on real time, the clock set back and a restart: the first id is above the last one before it', async () => {
    const db = await openPlatformStorage(dbName());
    const real = { now: T };
    const clock = await contextClock(db, real);
    const running = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.serviceWorker, clock);
    const before: string[] = [];
    // Ten seconds of ids on real time, requests taking turns with the store.
    for (let step = 0; step < 200; step++) {
      real.now += 50;
      before.push(running.next());
      if (step % 10 === 0) await settle(db);
    }
    expect(fields(max(before)).time).toBe(real.now);
    await saveClockState(db, { frozenAt: T - DAY }, T - DAY + SNOWFLAKE_LEASE_MS);
    clock.set({ frozenAt: T - DAY });
    before.push(running.next());
    const restarted = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.serviceWorker, await contextClock(db, real));
    const after = Array.from({ length: 50 }, () => restarted.next());
    expectStrictlyIncreasing([...before, ...after], 'across the restart');
    db.close();
  });

  it('a restart right after ids that outran the reservation (its renewal not yet committed) still starts above them', async () => {
    const db = await openPlatformStorage(dbName());
    const real = { now: T };
    const running = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.hub, await contextClock(db, real));
    const before = [running.next()];
    real.now += 10 * SNOWFLAKE_LEASE_MS; // idle, then a burst: the id is past the reservation
    before.push(running.next(), running.next());
    expect(fields(before[1]).time).toBeGreaterThan(running.leaseEnd);
    // The restart does not wait for anything: the clock went back before it started.
    const restarted = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.hub, new Clock({ frozenAt: T }));
    expectStrictlyIncreasing([...before, restarted.next()], 'restart during a renewal');
    db.close();
  });

  it('a clock set forward reserves its new time in the same write, so a context that dies before renewing is still below the next', async () => {
    const db = await openPlatformStorage(dbName());
    const clock = new Clock({ frozenAt: T });
    const { floor, end } = await startSnowflakeLease(db, T, SNOWFLAKE_LEASE_MS);
    // Process 31, and a renewal that never commits (the context is stopped first).
    const dying = new SnowflakeGenerator({
      workerId: 1,
      processId: 31,
      clock,
      floor,
      lease: { end, renew: () => new Promise(() => undefined) },
    });
    dying.next();
    await saveClockState(db, { frozenAt: T + DAY }, T + DAY + SNOWFLAKE_LEASE_MS);
    clock.set({ frozenAt: T + DAY });
    const last = dying.next();
    expect(fields(last).time).toBe(T + DAY);
    const next = await startSnowflakeGenerator(db, 1, new Clock({ frozenAt: T + DAY }));
    expect(BigInt(next.next()) > BigInt(last)).toBe(true);
    db.close();
  });

  it('33+ restarts with the clock frozen in the past: process ids come round again, ids never repeat nor go back', async () => {
    const db = await openPlatformStorage(dbName());
    const real = { now: T };
    let clock = await contextClock(db, real);
    const warmup = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.serviceWorker, clock);
    const all = Array.from({ length: 100 }, () => {
      real.now += 100;
      return warmup.next();
    });
    await settle(db);
    await saveClockState(db, { frozenAt: T - DAY }, T - DAY + SNOWFLAKE_LEASE_MS);
    const processes: number[] = [];
    for (let restart = 0; restart < 40; restart++) {
      clock = await contextClock(db, real);
      const ids = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.serviceWorker, clock);
      const batch = Array.from({ length: 5 }, () => ids.next());
      processes.push(fields(batch[0]).process);
      expect(BigInt(batch[0]) > BigInt(max(all)), `restart ${restart} starts above every earlier id`).toBe(true);
      all.push(...batch);
    }
    expect(processes[32]).toBe(processes[0]);
    expect(new Set(all).size).toBe(all.length);
    expectStrictlyIncreasing(all, 'restarts');
    db.close();
  });

  it('two contexts at once (service worker and shared worker), interleaved, restarted, clock moved: unique, increasing per context, never below an earlier context', async () => {
    const db = await openPlatformStorage(dbName());
    const real = { now: T };
    let seed = 7;
    // A linear congruential generator's low bits repeat quickly: draw from its high bits.
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    type Running = { gen: SnowflakeGenerator; clock: Clock; ids: string[]; startedAbove: string };
    const issued: string[] = [];
    const start = async (workerId: number): Promise<Running> => {
      const startedAbove = max(issued);
      const clock = await contextClock(db, real);
      return { gen: await startSnowflakeGenerator(db, workerId, clock), clock, ids: [], startedAbove };
    };
    const contexts = [await start(SNOWFLAKE_WORKERS.serviceWorker), await start(SNOWFLAKE_WORKERS.hub)];
    const finished: Running[] = [];
    for (let round = 0; round < 1000; round++) {
      const which = random(2);
      const action = random(10);
      if (action < 4) {
        for (let i = random(20); i >= 0; i--) {
          const id = contexts[which].gen.next();
          contexts[which].ids.push(id);
          issued.push(id);
        }
      } else if (action < 7) {
        real.now += random(3 * SNOWFLAKE_LEASE_MS);
      } else if (action === 7) {
        const states: ClockState[] = [
          REAL_TIME,
          { frozenAt: real.now - DAY },
          { frozenAt: real.now + random(5 * SNOWFLAKE_LEASE_MS) },
        ];
        const state = states[random(3)];
        await saveClockState(db, state, contexts[which].clock.readingUnder(state) + SNOWFLAKE_LEASE_MS);
        for (const context of contexts) context.clock.set(state);
      } else if (action === 8) {
        finished.push(contexts[which]);
        contexts[which] = await start(which === 0 ? SNOWFLAKE_WORKERS.serviceWorker : SNOWFLAKE_WORKERS.hub);
      } else {
        await settle(db);
      }
    }
    const everyContext = [...finished, ...contexts];
    expect(everyContext.length).toBeGreaterThan(10);
    expect(new Set(issued).size).toBe(issued.length);
    for (const [n, context] of everyContext.entries()) {
      expectStrictlyIncreasing(context.ids, `context ${n}`);
      if (context.ids.length > 0)
        expect(BigInt(context.ids[0]) > BigInt(context.startedAbove), `context ${n} starts above earlier ids`).toBe(
          true,
        );
    }
    db.close();
  });

  it('a sandbox reset keeps ids increasing: the reservation survives it and covers the return to real time', async () => {
    const name = dbName();
    const real = { now: T };
    const ctx = await createPlatformContext({
      db: await openPlatformStorage(name),
      workerId: SNOWFLAKE_WORKERS.serviceWorker,
      realNow: () => real.now,
    });
    await saveClockState(ctx.db, { frozenAt: T + 365 * DAY }, T + 365 * DAY + SNOWFLAKE_LEASE_MS);
    ctx.clock.set({ frozenAt: T + 365 * DAY });
    const future = ctx.ids.next();
    await resetPlatform(ctx);
    expect(ctx.clock.frozen).toBe(false);
    const restarted = await createPlatformContext({
      db: await openPlatformStorage(name),
      workerId: SNOWFLAKE_WORKERS.serviceWorker,
      realNow: () => real.now,
    });
    expect(BigInt(restarted.ids.next()) > BigInt(future)).toBe(true);
    ctx.db.close();
    restarted.db.close();
  });

  it('a store written before reservations existed (only the last start floor) is read as the reservation', async () => {
    const db = await openPlatformStorage(dbName());
    await db.put('meta', { next_process: 4, floor: T + 5000 }, 'snowflake');
    const ids = await startSnowflakeGenerator(db, 1, new Clock({ frozenAt: T }));
    expect(fields(ids.next())).toMatchObject({ time: T + 5001, process: 4 });
    db.close();
  });
});

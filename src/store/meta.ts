/**
 * Small persisted values: the platform clock and the snowflake allocation (process ids and the
 * reservation of snowflake time that keeps ids increasing across contexts and restarts).
 */
import { REAL_TIME, type Clock, type ClockState } from '../platform/core/clock';
import { SNOWFLAKE_LEASE_MS, SnowflakeGenerator } from '../platform/core/snowflake';
import type { IDBPObjectStore, StoreNames } from 'idb';
import type { MetaValues, PlatformDatabase, PlatformDB } from './schema';

type SnowflakeMeta = MetaValues['snowflake'];

/** The reservation so far: records written before reservations existed only kept `floor`. */
const highWater = (meta: SnowflakeMeta | undefined): number => meta?.high_water ?? meta?.floor ?? 0;

/**
 * Raises the snowflake reservation to cover `throughMs` (never lowers it) in the caller's
 * transaction; resolves with the reservation end.
 */
export async function reserveSnowflakesThrough<Scope extends ArrayLike<StoreNames<PlatformDB>>>(
  store: IDBPObjectStore<PlatformDB, Scope, 'meta', 'readwrite'>,
  throughMs: number,
): Promise<number> {
  const current = (await store.get('snowflake')) as SnowflakeMeta | undefined;
  if (throughMs <= highWater(current)) return highWater(current);
  await store.put({ next_process: current?.next_process ?? 0, high_water: throughMs }, 'snowflake');
  return throughMs;
}

/** The persisted clock state (real time when never set). */
export async function loadClockState(db: PlatformDatabase): Promise<ClockState> {
  return ((await db.get('meta', 'clock')) as MetaValues['clock'] | undefined) ?? REAL_TIME;
}

/**
 * Persists the clock state; resolves once committed. `reading` is the instant the clock reads
 * under the new state: the snowflake reservation is raised to cover it in the same transaction,
 * so that every context that hears of a clock set forward already finds its ids reserved.
 */
export async function saveClockState(db: PlatformDatabase, state: ClockState, reading: number): Promise<void> {
  const tx = db.transaction('meta', 'readwrite');
  await reserveSnowflakesThrough(tx.store, reading + SNOWFLAKE_LEASE_MS);
  await tx.store.put(state, 'clock');
  await tx.done;
}

/**
 * Allocates a snowflake process id for a context that is starting, and its first reservation:
 * it starts (`floor`) above every reservation made before, whatever the clock says now, and
 * reserves up to `end`. A context restarted within the same millisecond, after the clock was
 * set back, or after 32 others cycled the process ids, so starts above every earlier id.
 */
export async function startSnowflakeLease(
  db: PlatformDatabase,
  now: number,
): Promise<{ processId: number; floor: number; end: number }> {
  const tx = db.transaction('meta', 'readwrite');
  const current = (await tx.store.get('snowflake')) as SnowflakeMeta | undefined;
  const processId = current?.next_process ?? 0;
  const floor = Math.max(now, highWater(current) + 1);
  const end = floor + SNOWFLAKE_LEASE_MS;
  await tx.store.put({ next_process: (processId + 1) % 32, high_water: end }, 'snowflake');
  await tx.done;
  return { processId, floor, end };
}

/**
 * Raises the reservation to cover `throughMs`; resolves with the committed reservation end.
 * The transaction is created before the first await (see `SnowflakeLease.renew`).
 */
export async function renewSnowflakeLease(db: PlatformDatabase, throughMs: number): Promise<number> {
  const tx = db.transaction('meta', 'readwrite');
  const end = await reserveSnowflakesThrough(tx.store, throughMs);
  await tx.done;
  return end;
}

/**
 * The id generator of a context that is starting: a fresh process id and reservation, renewed
 * in this database as the ids go.
 * @example const ids = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.serviceWorker, clock);
 */
export async function startSnowflakeGenerator(
  db: PlatformDatabase,
  workerId: number,
  clock: Clock,
): Promise<SnowflakeGenerator> {
  const { processId, floor, end } = await startSnowflakeLease(db, clock.now());
  return new SnowflakeGenerator({
    workerId,
    processId,
    clock,
    floor,
    lease: { end, renew: (throughMs) => renewSnowflakeLease(db, throughMs) },
  });
}

/**
 * Small persisted values: the platform clock's state and the snowflake allocation (process ids
 * and the reservation of snowflake time that keeps ids increasing across contexts and restarts).
 * The store keeps the numbers; `platform/core` decides what they mean.
 */
import type { WriteTransaction } from './port';
import type { ClockState } from './records/clock';
import type { MetaValues, PlatformDB, PlatformStorage } from './schema';

type SnowflakeMeta = MetaValues['snowflake'];

/** The reservation so far: records written before reservations existed only kept `floor`. */
const highWater = (meta: SnowflakeMeta | undefined): number => meta?.high_water ?? meta?.floor ?? 0;

/**
 * Raises the snowflake reservation to cover `throughMs` (never lowers it) in the caller's
 * transaction; resolves with the reservation end.
 */
export async function reserveSnowflakesThrough(
  tx: WriteTransaction<PlatformDB, 'meta'>,
  throughMs: number,
): Promise<number> {
  const meta = tx.store('meta');
  const current = (await meta.get('snowflake')) as SnowflakeMeta | undefined;
  if (throughMs <= highWater(current)) return highWater(current);
  await meta.put({ next_process: current?.next_process ?? 0, high_water: throughMs }, 'snowflake');
  return throughMs;
}

/** The persisted clock state (real time when it was never set). */
export async function loadClockState(db: PlatformStorage): Promise<ClockState> {
  return ((await db.get('meta', 'clock')) as ClockState | undefined) ?? { frozenAt: null };
}

/**
 * Persists the clock state and, in the same transaction, raises the snowflake reservation to
 * `reserveThrough`; resolves once committed.
 */
export function saveClockState(db: PlatformStorage, state: ClockState, reserveThrough: number): Promise<void> {
  return db.write(['meta'], async (tx) => {
    await reserveSnowflakesThrough(tx, reserveThrough);
    await tx.store('meta').put(state, 'clock');
  });
}

/**
 * Allocates a snowflake process id for a context that is starting, and its first reservation:
 * it starts (`floor`) above every reservation made before, whatever the clock says now, and
 * reserves `leaseMs` past that. A context restarted within the same millisecond, after the
 * clock was set back, or after 32 others cycled the process ids, so starts above every earlier id.
 */
export function startSnowflakeLease(
  db: PlatformStorage,
  now: number,
  leaseMs: number,
): Promise<{ processId: number; floor: number; end: number }> {
  return db.write(['meta'], async (tx) => {
    const meta = tx.store('meta');
    const current = (await meta.get('snowflake')) as SnowflakeMeta | undefined;
    const processId = current?.next_process ?? 0;
    const floor = Math.max(now, highWater(current) + 1);
    const end = floor + leaseMs;
    await meta.put({ next_process: (processId + 1) % 32, high_water: end }, 'snowflake');
    return { processId, floor, end };
  });
}

/** Raises the reservation to cover `throughMs`; resolves with the committed reservation end. */
export function renewSnowflakeLease(db: PlatformStorage, throughMs: number): Promise<number> {
  return db.write(['meta'], (tx) => reserveSnowflakesThrough(tx, throughMs));
}

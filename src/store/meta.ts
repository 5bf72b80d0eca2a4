/**
 * Small persisted values: the platform clock and the snowflake process allocation.
 */
import { REAL_TIME, type ClockState } from '../platform/clock';
import type { MetaValues, PlatformDatabase } from './schema';

/** The persisted clock state (real time when never set). */
export async function loadClockState(db: PlatformDatabase): Promise<ClockState> {
  return ((await db.get('meta', 'clock')) as MetaValues['clock'] | undefined) ?? REAL_TIME;
}

/** Persists the clock state; resolves once committed. */
export async function saveClockState(db: PlatformDatabase, state: ClockState): Promise<void> {
  await db.put('meta', state, 'clock');
}

/**
 * Allocates a snowflake process id for a context that is starting, and a floor time that is
 * later than every earlier allocation. Two contexts, or one context restarted within the same
 * millisecond, so never hand out the same id.
 */
export async function allocateSnowflakeProcess(db: PlatformDatabase, now: number): Promise<{ processId: number; floor: number }> {
  const tx = db.transaction('meta', 'readwrite');
  const current = ((await tx.store.get('snowflake')) as MetaValues['snowflake'] | undefined) ?? { next_process: 0, floor: 0 };
  const floor = Math.max(now, current.floor + 1);
  await tx.store.put({ next_process: (current.next_process + 1) % 32, floor }, 'snowflake');
  await tx.done;
  return { processId: current.next_process, floor };
}

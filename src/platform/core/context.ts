/**
 * What every domain operation runs against: the database, the clock, the id generator, and
 * a way to announce committed changes to other contexts.
 */
import type { PlatformDatabase } from '../../store/schema';
import type { Announcement } from './announcements';
import { Clock } from './clock';
import type { SnowflakeGenerator } from './snowflake';
import { openPlatformDb } from '../../store/open';
import { loadClockState, startSnowflakeGenerator } from '../../store/meta';

/** The dependencies of domain operations. */
export interface PlatformContext {
  db: PlatformDatabase;
  clock: Clock;
  ids: SnowflakeGenerator;
  /** Called after a transaction commits that other contexts must hear of. */
  announce(message: Announcement): void;
}

/** How to build a context. */
export interface PlatformContextOptions {
  dbName?: string;
  /** The snowflake worker id of this kind of context (`SNOWFLAKE_WORKERS`). */
  workerId: number;
  announce?: (message: Announcement) => void;
  /** The source of real time (tests pass a fake). */
  realNow?: () => number;
}

/**
 * Opens the database, loads the persisted clock and starts this context's snowflakes (a process
 * id and a reservation above every earlier context's ids).
 * @example const ctx = await createPlatformContext({ workerId: SNOWFLAKE_WORKERS.serviceWorker });
 */
export async function createPlatformContext(options: PlatformContextOptions): Promise<PlatformContext> {
  const db = await openPlatformDb(options.dbName);
  const clock = new Clock(await loadClockState(db), options.realNow);
  const ids = await startSnowflakeGenerator(db, options.workerId, clock);
  return { db, clock, ids, announce: options.announce ?? (() => undefined) };
}

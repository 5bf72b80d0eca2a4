/**
 * What every domain operation runs against: the database, the clock, the id generator, a way
 * to announce committed changes to other contexts, and (where it may be kept) a read cache.
 */
import { loadClockState, renewSnowflakeLease, startSnowflakeLease } from '../../store/meta';
import type { PlatformStorage } from '../../store/schema';
import type { WriteGuard } from '../../store/write';
import { ANNOUNCED_EVENTS_MAX, type Announcement } from './announcements';
import { Clock } from './clock';
import { ReadCache } from './read-cache';
import { SNOWFLAKE_LEASE_MS, SnowflakeGenerator } from './snowflake';

/** The dependencies of domain operations. */
export interface PlatformContext {
  db: PlatformStorage;
  clock: Clock;
  ids: SnowflakeGenerator;
  /** Tells other contexts of a change they must look at (the host's BroadcastChannel, or nothing). */
  announce(message: Announcement): void;
  /** Reads kept in memory, where this context is the only writer of what they read (`read-cache.ts`). */
  cache?: ReadCache;
  /** What runs first in each write of this context (a request's: `sw/idempotency.ts`). */
  guard?: WriteGuard;
}

/** How to build a context. */
export interface PlatformContextOptions {
  /** The database, opened by the host (IndexedDB in the browser). */
  db: PlatformStorage;
  /** The snowflake worker id of this kind of context (`SNOWFLAKE_WORKERS`). */
  workerId: number;
  announce?: (message: Announcement) => void;
  /** The source of real time (tests pass a fake). */
  realNow?: () => number;
  /**
   * Keep a read cache: only for the sole writer of what it keeps (the service worker). Each of
   * this context's commits drops or updates exactly the entries whose records it changed.
   */
  readCache?: boolean;
}

/**
 * The id generator of a context that is starting: a fresh process id and reservation, renewed
 * in the database as the ids go.
 * @example const ids = await startSnowflakeGenerator(db, SNOWFLAKE_WORKERS.serviceWorker, clock);
 */
export async function startSnowflakeGenerator(
  db: PlatformStorage,
  workerId: number,
  clock: Clock,
): Promise<SnowflakeGenerator> {
  const { processId, floor, end } = await startSnowflakeLease(db, clock.now(), SNOWFLAKE_LEASE_MS);
  return new SnowflakeGenerator({
    workerId,
    processId,
    clock,
    floor,
    lease: { end, renew: (throughMs) => renewSnowflakeLease(db, throughMs) },
  });
}

/**
 * Loads the persisted clock and starts this context's snowflakes (a process id and a
 * reservation above every earlier context's ids); every commit that appended events is then
 * announced to other contexts, with the events themselves when they are few.
 * @example const ctx = await createPlatformContext({ db: await openPlatformStorage(), workerId: SNOWFLAKE_WORKERS.serviceWorker });
 */
export async function createPlatformContext(options: PlatformContextOptions): Promise<PlatformContext> {
  const { db } = options;
  const clock = new Clock(await loadClockState(db), options.realNow);
  const ids = await startSnowflakeGenerator(db, options.workerId, clock);
  const announce = options.announce ?? (() => undefined);
  const cache = options.readCache ? new ReadCache() : undefined;
  db.onCommit(({ events, changes }) => {
    cache?.apply(changes);
    if (events.length === 0) return;
    // A write's events have consecutive sequence numbers: they are all the log holds in (after, seq].
    announce({
      type: 'events',
      seq: events[events.length - 1].seq,
      after: events[0].seq - 1,
      events: events.length <= ANNOUNCED_EVENTS_MAX ? [...events] : undefined,
      stores: [...changes.keys()],
    });
  });
  return { db, clock, ids, announce, cache };
}

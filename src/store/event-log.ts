/**
 * Reading the durable event log (ARCHITECTURE rule 3). A change that emits an event appends it
 * in the same transaction as the change (`write`); the gateway dispatches from the log (so
 * Resume can replay by sequence number) and the webhook outbox delivers from it.
 */
import type { EventRecord } from './records/events';
import type { PlatformStorage } from './schema';

/** Events with a sequence number above `after`, oldest first, at most `limit`. */
export function readEventsAfter(db: PlatformStorage, after: number, limit = 1000): Promise<EventRecord[]> {
  return db.readLogAfter(after, limit);
}

/** The sequence number of the newest event, or 0 when the log is empty. */
export function latestEventSeq(db: PlatformStorage): Promise<number> {
  return db.latestSeq();
}

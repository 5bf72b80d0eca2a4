/**
 * The durable event log (ARCHITECTURE rule 3). A change that emits an event appends it in the
 * same transaction as the change; the gateway dispatches from the log (so Resume can replay by
 * sequence number) and the webhook outbox delivers from it.
 */
import type { IDBPTransaction, StoreNames } from 'idb';
import type { EventRecord, PlatformDatabase, PlatformDB } from './schema';

/** A read-write transaction that includes the `events` store. */
export type EventsTx = IDBPTransaction<PlatformDB, StoreNames<PlatformDB>[], 'readwrite'>;

/**
 * Appends an event inside the caller's transaction and resolves to its sequence number.
 * @example await appendEvent(tx, { type: 'LOBBY_MESSAGE_CREATE', data, audience, channels: ['gateway'], created_at })
 */
export async function appendEvent(tx: EventsTx, event: Omit<EventRecord, 'seq'>): Promise<number> {
  return tx.objectStore('events').add(event as EventRecord);
}

/** Events with a sequence number above `after`, oldest first, at most `limit`. */
export async function readEventsAfter(db: PlatformDatabase, after: number, limit = 1000): Promise<EventRecord[]> {
  return db.getAll('events', IDBKeyRange.lowerBound(after, true), limit);
}

/** The sequence number of the newest event, or 0 when the log is empty. */
export async function latestEventSeq(db: PlatformDatabase): Promise<number> {
  const cursor = await db.transaction('events').store.openKeyCursor(null, 'prev');
  return cursor ? cursor.key : 0;
}

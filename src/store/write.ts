/**
 * One write: a read-write transaction over the named stores plus the event log, committed
 * before the caller answers, then announced. Events appended inside the transaction are
 * durable together with the change (ARCHITECTURE rules 2 and 3).
 */
import type { IDBPTransaction, StoreNames } from 'idb';
import { ANNOUNCED_EVENTS_MAX } from '../platform/core/announcements';
import type { PlatformContext } from '../platform/core/context';
import { appendEvent } from './event-log';
import type { EventRecord, PlatformDB } from './schema';

/** The transaction a write runs in. */
export type WriteTx = IDBPTransaction<PlatformDB, StoreNames<PlatformDB>[], 'readwrite'>;
/** Appends an event to the log inside the write's transaction. */
export type Emit = (
  event: Omit<EventRecord, 'seq' | 'created_at' | 'channels'> & Partial<Pick<EventRecord, 'channels'>>,
) => void;

/**
 * Runs `body` in one transaction over `stores` and the event log; resolves with its result
 * once the transaction has committed. If `body` throws, the transaction aborts and nothing is
 * stored. `body` must await only IndexedDB requests: anything else (hashing, fetch) lets the
 * transaction commit early, so do that work before calling `write`.
 * @example
 * const lobby = await write(ctx, ['lobbies'], async (tx, emit) => { ...; emit({ type: 'LOBBY_UPDATE', data, audience }); return lobby; });
 */
export async function write<T>(
  ctx: PlatformContext,
  stores: StoreNames<PlatformDB>[],
  body: (tx: WriteTx, emit: Emit) => Promise<T>,
): Promise<T> {
  const tx = ctx.db.transaction([...new Set<StoreNames<PlatformDB>>([...stores, 'events'])], 'readwrite');
  const records: EventRecord[] = [];
  const pending: Promise<number>[] = [];
  const emit: Emit = (event) => {
    const record: EventRecord = { channels: ['gateway'], ...event, created_at: ctx.clock.now() };
    const seq = appendEvent(tx, record);
    // When the body throws, the abort rejects this request while nobody awaits it.
    seq.catch(() => undefined);
    records.push(record);
    pending.push(seq);
  };
  let result: T;
  try {
    result = await body(tx, emit);
    const seqs = await Promise.all(pending);
    await tx.done;
    if (seqs.length > 0) {
      // A read-write transaction over the log excludes every other, so its events have
      // consecutive keys: they are all the log holds from the one before the first to the last.
      const announced =
        records.length <= ANNOUNCED_EVENTS_MAX ? records.map((record, i) => ({ ...record, seq: seqs[i] })) : undefined;
      ctx.announce({ type: 'events', seq: seqs[seqs.length - 1], after: seqs[0] - 1, events: announced });
    }
  } catch (error) {
    try {
      tx.abort();
    } catch {
      // Already finished or aborted: the original error is the one that matters.
    }
    await tx.done.catch(() => undefined);
    throw error;
  }
  return result;
}

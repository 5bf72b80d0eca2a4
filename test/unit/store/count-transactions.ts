/**
 * Counts the transactions a platform storage opens, at the storage port: every read and write
 * the platform makes goes through its engine's `read` and `write`, on IndexedDB and on SQLite
 * alike, so one count checks both engines.
 */
import type { PlatformStorage, PlatformStoreName } from '../../../src/store/schema';

/** Which transactions to count: those whose scope includes `store`, of the given kinds. */
export interface TransactionFilter {
  store: PlatformStoreName;
  /** `read` for read-only transactions, `write` for read-write ones; both when omitted. */
  kinds?: readonly ('read' | 'write')[];
}

/**
 * From now on, counts the transactions `storage` opens that `filter` selects; returns the count
 * so far.
 * @example const reads = countTransactions(ctx.db, { store: 'events', kinds: ['read'] }); ...; expect(reads()).toBe(0);
 */
export function countTransactions(storage: PlatformStorage, filter: TransactionFilter): () => number {
  const { engine } = storage;
  const kinds = filter.kinds ?? ['read', 'write'];
  const read = engine.read;
  const write = engine.write;
  let count = 0;
  const note = (kind: 'read' | 'write', stores: readonly string[]) => {
    if (kinds.includes(kind) && stores.includes(filter.store)) count++;
  };
  // Own properties of this engine object shadow its class's methods, which still run on it.
  Object.defineProperties(engine, {
    read: {
      configurable: true,
      value: (stores: Parameters<typeof read>[0]) => (note('read', stores), read.call(engine, stores)),
    },
    write: {
      configurable: true,
      value: (stores: Parameters<typeof write>[0], body: Parameters<typeof write>[1]) => (
        note('write', stores), write.call(engine, stores, body)
      ),
    },
  });
  return () => count;
}

/**
 * Tells when a database connection opens a read-write transaction, whichever code opens it
 * (`write`, a direct `db.transaction(..., 'readwrite')`, idb's `db.put` shortcuts): what an
 * in-memory cache of this context needs to stay coherent with its own writes.
 */
import { unwrap } from 'idb';
import type { PlatformDatabase } from './schema';

type OpenTransaction = (
  this: IDBDatabase,
  names: string | Iterable<string>,
  mode?: IDBTransactionMode,
  options?: IDBTransactionOptions,
) => IDBTransaction;

/**
 * Calls `onWrite` with the stores in scope each time `db` opens a transaction that may write,
 * before it exists.
 * IndexedDB starts a read-only transaction created after a read-write one of overlapping scope
 * only once that one has finished, so a read that started after `onWrite` sees the write.
 * @example watchWrites(ctx.db, (stores) => cache.invalidate(stores));
 */
export function watchWrites(db: PlatformDatabase, onWrite: (stores: string[]) => void): void {
  const connection = unwrap(db) as unknown as { transaction: OpenTransaction };
  const open = connection.transaction;
  // An own property on this one connection: idb's proxy reads `transaction` from it, and its
  // shortcut methods (`db.put`...) open their transactions through it.
  connection.transaction = function transaction(names, mode, options) {
    if (mode !== undefined && mode !== 'readonly') onWrite(typeof names === 'string' ? [names] : [...names]);
    return open.call(this, names, mode, options);
  };
}

/**
 * The IndexedDB database under a platform storage, for tests that look below the port (schema
 * versions, raw transactions, a second connection by name).
 */
import type { IDBPDatabase } from 'idb';
import { IndexedDbEngine } from '../../../src/store/indexeddb/engine';
import type { PlatformStorage } from '../../../src/store/schema';

/** The idb database of `storage`; fails when it runs on another engine. */
export function indexedDbOf(storage: PlatformStorage): IDBPDatabase {
  if (!(storage.engine instanceof IndexedDbEngine)) throw new Error('Not an IndexedDB storage.');
  return storage.engine.database;
}

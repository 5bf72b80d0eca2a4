/**
 * The platform storage unit tests run on: IndexedDB (fake-indexeddb) by default, or SQLite
 * (better-sqlite3, in memory) with `PLATFORMPP_STORE=sqlite`, so that the HTTP and gateway
 * suites prove the same behaviour over both adapters. Opening a name again gives the storage
 * already open under it, as the server host shares one storage between its app and gateway.
 */
import Database from 'better-sqlite3';
import { openPlatformStorage } from '../../../src/store/indexeddb/open';
import type { PlatformStorage } from '../../../src/store/schema';
import { betterSqliteConnection } from '../../../src/store/sqlite/better-sqlite3';
import { openSqlitePlatformStorage } from '../../../src/store/sqlite/open';

/** The adapter unit tests run on. */
export const TEST_STORE: 'indexeddb' | 'sqlite' = process.env.PLATFORMPP_STORE === 'sqlite' ? 'sqlite' : 'indexeddb';

const sqlite = new Map<string, Promise<PlatformStorage>>();

/** Opens (or, on SQLite, shares) the platform storage named `name`. */
export function openTestStorage(name: string): Promise<PlatformStorage> {
  if (TEST_STORE === 'indexeddb') return openPlatformStorage(name);
  let opened = sqlite.get(name);
  if (!opened) {
    opened = openSqlitePlatformStorage(betterSqliteConnection(new Database(':memory:')));
    sqlite.set(name, opened);
  }
  return opened;
}

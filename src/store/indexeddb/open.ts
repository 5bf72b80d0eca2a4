/**
 * Opening an IndexedDB database as a storage engine: the platform's (through its versioned
 * migrations) or any other from a catalogue. A database closes itself when another context needs
 * to upgrade it, so a newer service worker is never blocked.
 */
import { type IDBPDatabase, type IDBPTransaction, openDB } from 'idb';
import type { Catalogue } from '../catalogue';
import type { Schema } from '../port';
import type { PlatformDB, PlatformStorage } from '../schema';
import { Storage } from '../storage';
import { IndexedDbEngine } from './engine';
import { DB_VERSION, MIGRATIONS } from './migrations';

/** The database name the workers and pages share. */
export const DEFAULT_DB_NAME = 'platformpp';

/** Creates or upgrades a database's stores, from `oldVersion` to `newVersion`. */
type Upgrade = (
  database: IDBPDatabase,
  oldVersion: number,
  newVersion: number,
  tx: IDBPTransaction<unknown, string[], 'versionchange'>,
) => void;

/**
 * Opens (creating or upgrading) an IndexedDB database as a storage engine.
 * @example const engine = await openIndexedDbEngine<MyDB>('mine', 1, createFromCatalogue(CATALOGUE));
 */
export async function openIndexedDbEngine<S extends Schema>(
  name: string,
  version: number,
  upgrade: Upgrade,
): Promise<IndexedDbEngine<S>> {
  const database = await openDB(name, version, {
    upgrade: (db, oldVersion, newVersion, tx) => upgrade(db, oldVersion, newVersion ?? version, tx),
  });
  database.addEventListener('versionchange', () => database.close());
  return new IndexedDbEngine<S>(database);
}

/**
 * An upgrade that creates every store of `catalogue` in a new database (version 1).
 * @example await openIndexedDbEngine('suite', 1, createFromCatalogue(SUITE_CATALOGUE));
 */
export function createFromCatalogue<S extends Schema>(catalogue: Catalogue<S>): Upgrade {
  return (database) => {
    for (const [name, definition] of Object.entries(catalogue)) {
      const store = database.createObjectStore(name, {
        keyPath: definition.keyPath as string | string[] | undefined,
        autoIncrement: definition.autoIncrement,
      });
      for (const [index, { keyPath, unique, multiEntry }] of Object.entries(definition.indexes)) {
        store.createIndex(index, keyPath as string | string[], { unique, multiEntry });
      }
    }
  };
}

/**
 * Opens (creating or upgrading) the platform database.
 * @example const db = await openPlatformStorage();
 */
export async function openPlatformStorage(name = DEFAULT_DB_NAME, version = DB_VERSION): Promise<PlatformStorage> {
  const engine = await openIndexedDbEngine<PlatformDB>(name, version, (database, oldVersion, newVersion, tx) => {
    for (let v = oldVersion + 1; v <= newVersion; v++) MIGRATIONS[v](database, tx);
  });
  return new Storage(engine, 'events');
}

/**
 * Opening the platform database: migrations on upgrade, and a database that closes itself
 * when another context needs to upgrade it (so a newer service worker is never blocked).
 */
import { openDB } from 'idb';
import { DB_VERSION, MIGRATIONS } from './migrations';
import type { PlatformDatabase, PlatformDB } from './schema';

/** The database name the workers and pages share. */
export const DEFAULT_DB_NAME = 'platformpp';

/**
 * Opens (creating or upgrading) the platform database.
 * @example const db = await openPlatformDb();
 */
export async function openPlatformDb(name = DEFAULT_DB_NAME, version = DB_VERSION): Promise<PlatformDatabase> {
  const db = await openDB<PlatformDB>(name, version, {
    upgrade(database, oldVersion, newVersion, tx) {
      for (let v = oldVersion + 1; v <= (newVersion ?? version); v++) MIGRATIONS[v](database, tx);
    },
  });
  db.addEventListener('versionchange', () => db.close());
  return db;
}

/**
 * Opening a SQLite database as the platform's storage: the tables of every store and index
 * come from the platform catalogue, created on first use and extended when it grows.
 */
import { PLATFORM_CATALOGUE } from '../platform-catalogue';
import type { PlatformStorage } from '../schema';
import { Storage } from '../storage';
import { SqliteEngine } from './engine';
import type { SqlConnection } from './sql';

/**
 * The platform database over `sql`.
 * @example const db = await openSqlitePlatformStorage(durableObjectSqlConnection(ctx.storage));
 */
export async function openSqlitePlatformStorage(sql: SqlConnection): Promise<PlatformStorage> {
  return new Storage(await SqliteEngine.open(sql, PLATFORM_CATALOGUE), 'events');
}

/**
 * The SQL facade over a SQLite-backed Durable Object's storage (`ctx.storage`): statements
 * through `storage.sql.exec`, transactions through `storage.transaction`, which rolls back
 * when its callback rejects (workerd refuses `BEGIN` and `SAVEPOINT` in SQL). A write the
 * object committed is durable before any of its answers leaves it (the object's output gate).
 */
import { blobBytes, type SqlConnection, type SqlRow, type SqlValue } from './sql';

/** What the adapter uses of `DurableObjectState.storage`. */
export interface DurableObjectSqlStorage {
  sql: { exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] } };
  transaction<T>(closure: () => Promise<T>): Promise<T>;
}

/** ArrayBuffers (how workerd returns BLOBs) as byte arrays. */
function normalize(row: Record<string, unknown>): SqlRow {
  for (const [name, value] of Object.entries(row)) {
    if (value instanceof ArrayBuffer) row[name] = blobBytes(value);
  }
  return row as SqlRow;
}

/**
 * A connection over a Durable Object's SQLite database.
 * @example const sql = durableObjectSqlConnection(ctx.storage);
 */
export function durableObjectSqlConnection(storage: DurableObjectSqlStorage): SqlConnection {
  return {
    exec(query: string, ...params: SqlValue[]): SqlRow[] {
      return storage.sql
        .exec(query, ...params)
        .toArray()
        .map(normalize);
    },
    transaction<T>(body: () => Promise<T>): Promise<T> {
      return storage.transaction(body);
    },
  };
}

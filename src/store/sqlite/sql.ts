/**
 * The little of SQLite the adapter needs, as one interface with a facade per binding: a Durable
 * Object's `ctx.storage` on workerd (`durable-object-sql.ts`) and better-sqlite3 in Node
 * (`better-sqlite3.ts`, for tests and tools). Both are synchronous per statement; only a
 * transaction spans awaits.
 */

/** A value SQLite stores: keys are BLOBs (`Uint8Array`), records TEXT. */
export type SqlValue = null | number | string | Uint8Array;

/** One result row, by column name; BLOBs come back as `Uint8Array`. */
export type SqlRow = Record<string, SqlValue>;

/** One SQLite database. */
export interface SqlConnection {
  /** Runs one statement with its `?` parameters and returns its rows (none for a write). */
  exec(sql: string, ...params: SqlValue[]): SqlRow[];
  /**
   * Runs `body` in one transaction: committed (durably) when it resolves, rolled back when it
   * rejects. Transactions never overlap: the engine runs one at a time.
   */
  transaction<T>(body: () => Promise<T>): Promise<T>;
}

/** A BLOB as the bindings hand it back (Node's Buffer, workerd's ArrayBuffer), as bytes. */
export function blobBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new TypeError('Expected a BLOB column.');
}

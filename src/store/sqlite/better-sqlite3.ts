/**
 * The SQL facade over a better-sqlite3 database (Node): how the SQLite adapter runs in unit
 * tests and tools without workerd. Typed structurally, so the package does not depend on the
 * binding: the caller opens the database and passes it in.
 */
import type { SqlConnection, SqlRow, SqlValue } from './sql';

/** What the adapter uses of a better-sqlite3 statement. */
interface Statement {
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
}

/** What the adapter uses of a better-sqlite3 database. */
export interface BetterSqliteDatabase {
  prepare(sql: string): Statement;
  exec(sql: string): unknown;
}

/** Buffers as plain byte arrays, the way the adapter compares and decodes them. */
function normalize(row: Record<string, unknown>): SqlRow {
  for (const [name, value] of Object.entries(row)) {
    if (value instanceof Uint8Array && value.constructor !== Uint8Array) {
      row[name] = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return row as SqlRow;
}

/**
 * A connection over `db`, with statements prepared once and kept.
 * @example const sql = betterSqliteConnection(new Database(':memory:'));
 */
export function betterSqliteConnection(db: BetterSqliteDatabase): SqlConnection {
  const statements = new Map<string, Statement>();
  return {
    exec(sql: string, ...params: SqlValue[]): SqlRow[] {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      if (!statement.reader) {
        statement.run(...params);
        return [];
      }
      return (statement.all(...params) as Record<string, unknown>[]).map(normalize);
    },
    async transaction<T>(body: () => Promise<T>): Promise<T> {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await body();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
  };
}

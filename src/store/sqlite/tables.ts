/**
 * The SQLite tables of a catalogue, created from it when the database starts empty and brought
 * up to date when the catalogue grew (a new store, a new or changed index, filled from the
 * records already stored). Per store: `r_<store>` (key BLOB, record TEXT, number of extra
 * parts), and per index `x_<store>__<index>` (index key BLOB, primary key BLOB); records too
 * large for one row (SQLite-backed Durable Objects keep at most 2 MB per row) continue in
 * `_parts`; auto-increment stores keep their next key in `_sequences`, so a key is never reused.
 */
import { type Catalogue, type IndexDefinition, type StoreDefinition, valueAtKeyPath } from '../catalogue';
import type { Key, Schema } from '../port';
import { encodeKey, isValidKey } from './key-codec';
import type { SqlConnection } from './sql';
import { decodeValue } from './value-codec';

/** The table of a store's records. */
export const recordTable = (store: string): string => `"r_${store}"`;

/** The table of one index. */
export const indexTable = (store: string, index: string): string => `"x_${store}__${index}"`;

/** The index keys `value` has in `index`: none when the key path is missing or no valid key. */
export function indexKeysOf(definition: IndexDefinition, value: unknown): Uint8Array[] {
  const key = valueAtKeyPath(value, definition.keyPath);
  if (definition.multiEntry && Array.isArray(key)) {
    const seen = new Set<string>();
    const keys: Uint8Array[] = [];
    for (const element of key) {
      if (!isValidKey(element)) continue;
      const bytes = encodeKey(element);
      const id = bytes.join(',');
      if (!seen.has(id)) {
        seen.add(id);
        keys.push(bytes);
      }
    }
    return keys;
  }
  return isValidKey(key) ? [encodeKey(key as Key)] : [];
}

function createIndex(sql: SqlConnection, store: string, name: string, definition: IndexDefinition): void {
  const table = indexTable(store, name);
  sql.exec(`CREATE TABLE ${table} (ik BLOB NOT NULL, pk BLOB NOT NULL, PRIMARY KEY (ik, pk)) WITHOUT ROWID`);
  sql.exec(`CREATE INDEX "x_${store}__${name}__pk" ON ${table} (pk)`);
  if (definition.unique) sql.exec(`CREATE UNIQUE INDEX "x_${store}__${name}__unique" ON ${table} (ik)`);
}

/** Fills a new index from the records already stored. */
async function fillIndex(sql: SqlConnection, store: string, name: string, definition: IndexDefinition): Promise<void> {
  const rows = sql.exec(`SELECT k, v, parts FROM ${recordTable(store)}`);
  for (const row of rows) {
    let text = row.v as string;
    if ((row.parts as number) > 0) text += readParts(sql, store, row.k as Uint8Array);
    const value = await decodeValue(text);
    for (const ik of indexKeysOf(definition, value)) {
      sql.exec(`INSERT INTO ${indexTable(store, name)} (ik, pk) VALUES (?, ?)`, ik, row.k as Uint8Array);
    }
  }
}

/** The rest of a record stored over several rows. */
export function readParts(sql: SqlConnection, store: string, key: Uint8Array): string {
  return sql
    .exec('SELECT v FROM _parts WHERE store = ? AND k = ? ORDER BY n', store, key)
    .map((row) => row.v as string)
    .join('');
}

/**
 * Creates what `catalogue` declares and the database lacks; an index whose definition changed
 * is built again. Removed stores and indexes are dropped. Runs in one transaction.
 */
export async function applyCatalogue<S extends Schema>(sql: SqlConnection, catalogue: Catalogue<S>): Promise<void> {
  sql.exec('CREATE TABLE IF NOT EXISTS _stores (name TEXT PRIMARY KEY, definition TEXT NOT NULL)');
  sql.exec('CREATE TABLE IF NOT EXISTS _sequences (name TEXT PRIMARY KEY, next INTEGER NOT NULL)');
  sql.exec(
    'CREATE TABLE IF NOT EXISTS _parts (store TEXT NOT NULL, k BLOB NOT NULL, n INTEGER NOT NULL, v TEXT NOT NULL, PRIMARY KEY (store, k, n)) WITHOUT ROWID',
  );
  const existing = new Map(
    sql
      .exec('SELECT name, definition FROM _stores')
      .map((row) => [row.name as string, JSON.parse(row.definition as string) as StoreDefinition]),
  );
  await sql.transaction(async () => {
    for (const [store, definition] of Object.entries(catalogue) as [string, StoreDefinition][]) {
      const before = existing.get(store);
      if (before && JSON.stringify(before.keyPath) !== JSON.stringify(definition.keyPath)) {
        throw new Error(`The key path of store ${store} changed: a store's key cannot change.`);
      }
      if (!before) {
        sql.exec(
          `CREATE TABLE ${recordTable(store)} (k BLOB PRIMARY KEY, v TEXT NOT NULL, parts INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID`,
        );
      }
      for (const [name, index] of Object.entries(definition.indexes)) {
        const old = before?.indexes[name];
        if (old && JSON.stringify(old) === JSON.stringify(index)) continue;
        if (old) sql.exec(`DROP TABLE ${indexTable(store, name)}`);
        createIndex(sql, store, name, index);
        if (before) await fillIndex(sql, store, name, index);
      }
      for (const name of Object.keys(before?.indexes ?? {})) {
        if (!(name in definition.indexes)) sql.exec(`DROP TABLE ${indexTable(store, name)}`);
      }
      sql.exec(
        'INSERT INTO _stores (name, definition) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET definition = excluded.definition',
        store,
        JSON.stringify(definition),
      );
    }
    for (const [store, before] of existing) {
      if (store in catalogue) continue;
      for (const name of Object.keys(before.indexes)) sql.exec(`DROP TABLE ${indexTable(store, name)}`);
      sql.exec(`DROP TABLE ${recordTable(store)}`);
      sql.exec('DELETE FROM _parts WHERE store = ?', store);
      sql.exec('DELETE FROM _stores WHERE name = ?', store);
    }
  });
}

/**
 * Writes of one store as SQL, inside the engine's transaction: the record row (split over
 * `_parts` when it is larger than a row should be), then one row per index key. A record
 * replaced or deleted first loses its index rows, so every index holds exactly the keys of the
 * records stored now.
 */
import { type StoreDefinition, valueAtKeyPath } from '../catalogue';
import type { Key, Query, WritableStore } from '../port';
import { encodeKey, isValidKey } from './key-codec';
import { condition, requiredQuery } from './ranges';
import { type ReadGate, SqliteRange } from './reads';
import type { SqlConnection, SqlValue } from './sql';
import { indexKeysOf, indexTable, recordTable } from './tables';
import { encodeValue } from './value-codec';

/**
 * Characters of stored text per row: at most 3 UTF-8 bytes each, so a row stays well under the
 * 2 MB a SQLite-backed Durable Object allows.
 */
export const ROW_CHARS = 500_000;

/** What a write store asks of its transaction. */
export interface WriteScope {
  /** Runs a request after the transaction's earlier ones; a failure fails the whole write. */
  request: ReadGate;
  /** The next generated key of an auto-increment store. */
  nextKey(store: string): number;
  /** Raises the generator past an explicit numeric key. */
  sawKey(store: string, key: number): void;
}

const dataError = (message: string) => new DOMException(message, 'DataError');

/** `text` cut into rows, never inside a surrogate pair. */
function splitRows(text: string): string[] {
  const rows: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + ROW_CHARS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    rows.push(text.slice(at, end));
    at = end;
  }
  return rows.length > 0 ? rows : [''];
}

/** Reads and writes of one store in a write transaction. */
export class SqliteWriteStore<V, K extends Key> extends SqliteRange<V, K, K> implements WritableStore<any, string> {
  constructor(
    private readonly db: SqlConnection,
    private readonly name: string,
    private readonly definition: StoreDefinition,
    private readonly scope: WriteScope,
  ) {
    super(db, name, scope.request);
  }

  index(name: string): SqliteRange<V, K, Key> {
    const definition = this.definition.indexes[name];
    if (!definition) throw new DOMException(`No index ${name} on store ${this.name}.`, 'NotFoundError');
    return new SqliteRange(this.db, this.name, this.scope.request, { name, definition });
  }

  add(value: unknown, key?: Key): Promise<K> {
    return this.scope.request(() => this.#store(value, key, false));
  }

  put(value: unknown, key?: Key): Promise<K> {
    return this.scope.request(() => this.#store(value, key, true));
  }

  delete(query: Query): Promise<void> {
    return this.scope.request(() => {
      const { where, params } = condition('k', requiredQuery(query));
      const selected = `SELECT k FROM ${recordTable(this.name)} WHERE ${where}`;
      for (const index of Object.keys(this.definition.indexes)) {
        this.db.exec(`DELETE FROM ${indexTable(this.name, index)} WHERE pk IN (${selected})`, ...params);
      }
      this.db.exec(`DELETE FROM _parts WHERE store = ? AND k IN (${selected})`, this.name, ...params);
      this.db.exec(`DELETE FROM ${recordTable(this.name)} WHERE ${where}`, ...params);
    });
  }

  clear(): Promise<void> {
    return this.scope.request(() => {
      for (const index of Object.keys(this.definition.indexes))
        this.db.exec(`DELETE FROM ${indexTable(this.name, index)}`);
      this.db.exec('DELETE FROM _parts WHERE store = ?', this.name);
      this.db.exec(`DELETE FROM ${recordTable(this.name)}`);
    });
  }

  /**
   * The key a record is stored under, the record as stored (a generated key put in), and whether
   * the key was generated: above every key the store holds, so no record has it yet.
   */
  #keyOf(value: unknown, key: Key | undefined): [Key, unknown, boolean] {
    const { keyPath, autoIncrement } = this.definition;
    if (keyPath === undefined) {
      if (key !== undefined) return [key, value, false];
      if (autoIncrement) return [this.scope.nextKey(this.name), value, true];
      throw dataError(`Store ${this.name} has no key path: the write must name the key.`);
    }
    if (key !== undefined) throw dataError(`Store ${this.name} has a key path: the write must not name a key.`);
    const found = valueAtKeyPath(value, keyPath);
    if (found === undefined && autoIncrement && typeof keyPath === 'string' && !keyPath.includes('.')) {
      const generated = this.scope.nextKey(this.name);
      return [generated, { ...(value as object), [keyPath]: generated }, true];
    }
    if (!isValidKey(found)) throw dataError(`The record has no valid key at ${String(keyPath)}.`);
    return [found, value, false];
  }

  #store(value: unknown, explicitKey: Key | undefined, replace: boolean): K | Promise<K> {
    const [key, record, generated] = this.#keyOf(value, explicitKey);
    const keyBytes = encodeKey(key);
    if (this.definition.autoIncrement && typeof key === 'number') this.scope.sawKey(this.name, key);
    const text = encodeValue(record);
    const apply = (stored: string): K => {
      this.#writeRow(keyBytes, stored, record, replace, generated);
      return key as K;
    };
    return typeof text === 'string' ? apply(text) : text.then(apply);
  }

  /** Writes the record's rows and index entries; `fresh`: no record has the key yet (a generated one), so none is looked for. */
  #writeRow(key: Uint8Array, text: string, record: unknown, replace: boolean, fresh: boolean): void {
    const table = recordTable(this.name);
    const [old] = fresh ? [] : this.db.exec(`SELECT parts FROM ${table} WHERE k = ?`, key);
    if (old && !replace)
      throw new DOMException(`A record with this key is already in ${this.name}.`, 'ConstraintError');
    if (old) {
      for (const index of Object.keys(this.definition.indexes)) {
        this.db.exec(`DELETE FROM ${indexTable(this.name, index)} WHERE pk = ?`, key);
      }
      if ((old.parts as number) > 0) this.db.exec('DELETE FROM _parts WHERE store = ? AND k = ?', this.name, key);
    }
    const rows = splitRows(text);
    const params: SqlValue[] = [key, rows[0], rows.length - 1];
    if (old) this.db.exec(`UPDATE ${table} SET v = ?, parts = ? WHERE k = ?`, rows[0], rows.length - 1, key);
    else this.db.exec(`INSERT INTO ${table} (k, v, parts) VALUES (?, ?, ?)`, ...params);
    for (let n = 1; n < rows.length; n++) {
      this.db.exec('INSERT INTO _parts (store, k, n, v) VALUES (?, ?, ?, ?)', this.name, key, n, rows[n]);
    }
    for (const [index, definition] of Object.entries(this.definition.indexes)) {
      for (const indexKey of indexKeysOf(definition, record)) {
        this.db.exec(`INSERT INTO ${indexTable(this.name, index)} (ik, pk) VALUES (?, ?)`, indexKey, key);
      }
    }
  }
}

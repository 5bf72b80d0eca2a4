/**
 * Reads of one store or index as SQL: records ordered by their encoded key (for an index, by
 * index key then primary key, as IndexedDB orders it), selected by a condition, limited.
 * Iteration reads pages and continues after the last key it saw, so a long walk holds no
 * more than a page in memory and a `break` stops reading.
 */
import type { IndexDefinition } from '../catalogue';
import type { Direction, Entry, Key, Query, ReadableRange } from '../port';
import { decodeKey } from './key-codec';
import { condition, limit, order, requiredQuery } from './ranges';
import type { SqlConnection, SqlRow } from './sql';
import { indexTable, readParts, recordTable } from './tables';
import { decodeValue } from './value-codec';

/** Runs a read when the transaction may: at once, or after the write it must not see into. */
export type ReadGate = <T>(read: () => T | Promise<T>) => Promise<T>;

/** Records read per step of an iteration. */
const PAGE = 100;

/** The stored text of the record a row holds, its extra parts read too. */
function rowText(sql: SqlConnection, store: string, row: SqlRow): string {
  const text = row.v as string;
  return (row.parts as number) > 0 ? text + readParts(sql, store, row.k as Uint8Array) : text;
}

/** The record a row holds. */
export function rowValue(sql: SqlConnection, store: string, row: SqlRow): unknown {
  return decodeValue(rowText(sql, store, row));
}

/** Reads over a store (`index` undefined) or one of its indexes. */
export class SqliteRange<V, K extends Key, IK extends Key> implements ReadableRange<V, K, IK> {
  readonly #select: string;
  readonly #from: string;
  readonly #keyColumn: string;
  readonly #orderBy: (direction: Direction) => string;

  constructor(
    private readonly sql: SqlConnection,
    private readonly store: string,
    private readonly gate: ReadGate,
    index?: { name: string; definition: IndexDefinition },
  ) {
    const records = recordTable(store);
    if (index) {
      this.#select = 'x.ik AS ik, x.pk AS k, r.v AS v, r.parts AS parts';
      this.#from = `${indexTable(store, index.name)} x JOIN ${records} r ON r.k = x.pk`;
      this.#keyColumn = 'x.ik';
      this.#orderBy = (direction) => `x.ik ${order(direction)}, x.pk ${order(direction)}`;
    } else {
      this.#select = 'r.k AS k, r.v AS v, r.parts AS parts';
      this.#from = `${records} r`;
      this.#keyColumn = 'r.k';
      this.#orderBy = (direction) => `r.k ${order(direction)}`;
    }
  }

  #rows(query: Query | null | undefined, count: number | undefined, direction: Direction, select = this.#select) {
    const { where, params } = condition(this.#keyColumn, query);
    return this.sql.exec(
      `SELECT ${select} FROM ${this.#from} WHERE ${where} ORDER BY ${this.#orderBy(direction)} LIMIT ?`,
      ...params,
      limit(count),
    );
  }

  get(query: Query): Promise<V | undefined> {
    return this.gate(() => {
      const [row] = this.#rows(requiredQuery(query), 1, 'next');
      return row && (rowValue(this.sql, this.store, row) as V);
    });
  }

  getKey(query: Query): Promise<K | undefined> {
    return this.gate(() => {
      const [row] = this.#rows(requiredQuery(query), 1, 'next', 'r.k AS k');
      return row && (decodeKey(row.k as Uint8Array) as K);
    });
  }

  getAll(query?: Query | null, count?: number, direction: Direction = 'next'): Promise<V[]> {
    return this.gate(() => {
      const values = this.#rows(query, count, direction).map((row) => rowValue(this.sql, this.store, row));
      return values.some((value) => value instanceof Promise) ? (Promise.all(values) as Promise<V[]>) : (values as V[]);
    });
  }

  getAllKeys(query?: Query | null, count?: number, direction: Direction = 'next'): Promise<K[]> {
    return this.gate(() =>
      this.#rows(query, count, direction, 'r.k AS k').map((row) => decodeKey(row.k as Uint8Array) as K),
    );
  }

  count(query?: Query | null): Promise<number> {
    return this.gate(() => {
      const { where, params } = condition(this.#keyColumn, query);
      return this.sql.exec(`SELECT count(*) AS n FROM ${this.#from} WHERE ${where}`, ...params)[0].n as number;
    });
  }

  async *iterate(query?: Query | null, direction: Direction = 'next'): AsyncIterable<Entry<V, K, IK>> {
    const base = condition(this.#keyColumn, query);
    const isIndex = this.#keyColumn === 'x.ik';
    const after = direction === 'prev' ? '<' : '>';
    let last: SqlRow | undefined;
    for (;;) {
      const page = await this.gate(() => {
        let where = base.where;
        const params = [...base.params];
        if (last && isIndex) {
          where += ` AND (x.ik ${after} ? OR (x.ik = ? AND x.pk ${after} ?))`;
          params.push(last.ik, last.ik, last.k);
        } else if (last) {
          where += ` AND r.k ${after} ?`;
          params.push(last.k);
        }
        const rows = this.sql.exec(
          `SELECT ${this.#select} FROM ${this.#from} WHERE ${where} ORDER BY ${this.#orderBy(direction)} LIMIT ?`,
          ...params,
          PAGE,
        );
        // Read whole before anything else runs: a later write does not reach into this page.
        return rows.map((row) => ({ row, text: rowText(this.sql, this.store, row) }));
      });
      for (const { row, text } of page) {
        const primaryKey = decodeKey(row.k as Uint8Array) as K;
        const key = (isIndex ? decodeKey(row.ik as Uint8Array) : primaryKey) as IK;
        yield { key, primaryKey, value: (await decodeValue(text)) as V };
      }
      if (page.length < PAGE) return;
      last = page[page.length - 1].row;
    }
  }
}

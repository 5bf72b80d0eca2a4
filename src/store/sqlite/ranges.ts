/**
 * Port queries as SQL conditions over an encoded key column: a key is `col = ?`, a range one or
 * two comparisons, nothing at all when the query selects every record. Because encoded keys
 * sort as keys do, SQLite's BLOB comparison does the rest.
 */
import { type Direction, isKeyRange, type Query } from '../port';
import { encodeKey } from './key-codec';
import type { SqlValue } from './sql';

/**
 * `query`, refused as IndexedDB refuses it (`DataError`) when it is missing where a request
 * needs one (`get`, `getKey`, `delete`): selecting every record there would read, or delete,
 * what the caller never named.
 */
export function requiredQuery(query: Query | null | undefined): Query {
  if (query === null || query === undefined)
    throw new DOMException('The request needs a key or a key range.', 'DataError');
  return query;
}

/** A WHERE clause (`1` when there is none) and its parameters. */
export interface Condition {
  where: string;
  params: SqlValue[];
}

/**
 * The condition selecting `query` on column `column`.
 * @example condition('k', keyRange.bound(['a'], ['a', []])) // { where: 'k >= ? AND k <= ?', params: [...] }
 */
export function condition(column: string, query: Query | null | undefined): Condition {
  if (query === null || query === undefined) return { where: '1', params: [] };
  if (!isKeyRange(query)) return { where: `${column} = ?`, params: [encodeKey(query)] };
  const parts: string[] = [];
  const params: SqlValue[] = [];
  if (query.lower !== undefined) {
    parts.push(`${column} ${query.lowerOpen ? '>' : '>='} ?`);
    params.push(encodeKey(query.lower));
  }
  if (query.upper !== undefined) {
    parts.push(`${column} ${query.upperOpen ? '<' : '<='} ?`);
    params.push(encodeKey(query.upper));
  }
  if (query.lower !== undefined && query.upper !== undefined) {
    const [lower, upper] = params as Uint8Array[];
    const order = compareBytes(lower, upper);
    // IndexedDB cannot build a range that holds no key (`IDBKeyRange.bound` throws): neither can we.
    if (order > 0 || (order === 0 && (query.lowerOpen || query.upperOpen)))
      throw new DOMException('The key range holds no key: its lower bound is above its upper bound.', 'DataError');
    // `only(key)`: one comparison, so SQLite seeks instead of scanning a range.
    if (order === 0) return { where: `${column} = ?`, params: [lower] };
  }
  return { where: parts.length > 0 ? parts.join(' AND ') : '1', params };
}

/** The order of two encoded keys, as SQLite compares BLOBs (byte by byte, then by length). */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** SQL's name for a direction. */
export const order = (direction: Direction): 'ASC' | 'DESC' => (direction === 'prev' ? 'DESC' : 'ASC');

/**
 * A LIMIT value (SQLite takes -1 as none) for a record count as IndexedDB takes it, a WebIDL
 * `unsigned long`: a fraction is cut to a whole number, 0 means every record, anything outside
 * the range is a `TypeError`.
 */
export function limit(count: number | undefined): number {
  if (count === undefined) return -1;
  if (!(count >= 0 && count <= 0xffff_ffff)) throw new TypeError(`${count} is not a record count.`);
  return Math.trunc(count) || -1;
}

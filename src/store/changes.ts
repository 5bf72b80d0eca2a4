/**
 * What a committed write changed, record by record: the puts with their keys and values, the
 * deletions with their queries, the clears. `Storage.write` records them while the body runs
 * (every engine alike, through {@link RecordingStore}) and hands them to its commit listeners,
 * so that a listener can tell which records a write touched, not only which stores it could
 * have touched (a read cache drops or updates exactly what changed). Also the port's key order
 * as a function, for listeners that compare keys.
 */
import {
  isKeyRange,
  type Key,
  type KeyRange,
  type Query,
  type Schema,
  type StoreName,
  type WritableStore,
} from './port';

/** One change a write asked of a store, in the order it asked. */
export type Change =
  /** A record stored (`put` or `add`) under `key`; `value` is the record as the write passed it. */
  | { kind: 'put'; key: Key; value: unknown }
  /** The records `query` selects removed. */
  | { kind: 'delete'; query: Query }
  /** Every record removed. */
  | { kind: 'clear' };

/** Every store a write changed, with its changes in order. Stores it only read are absent. */
export type Changes<S extends Schema = Schema> = ReadonlyMap<StoreName<S>, readonly Change[]>;

const TYPE_RANK = { number: 0, string: 1, object: 2 } as const;

/**
 * The port's key order (see `port.ts`): numbers, then strings by UTF-16 code unit, then arrays
 * element by element with a prefix first. Negative when `a` sorts first.
 * @example compareKeys(['1', 'a'], ['1']) // 1
 */
export function compareKeys(a: Key, b: Key): number {
  const ta = TYPE_RANK[typeof a as keyof typeof TYPE_RANK];
  const tb = TYPE_RANK[typeof b as keyof typeof TYPE_RANK];
  if (ta !== tb) return ta - tb;
  if (typeof a === 'number' || typeof a === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const x = a as readonly Key[];
  const y = b as readonly Key[];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const order = compareKeys(x[i], y[i]);
    if (order !== 0) return order;
  }
  return x.length - y.length;
}

/** True when `prefix` is an array whose elements begin `key` (or `key` itself). */
export function isKeyPrefix(prefix: Key, key: Key): boolean {
  if (!Array.isArray(prefix)) return compareKeys(prefix, key) === 0;
  if (!Array.isArray(key) || key.length < prefix.length) return false;
  return prefix.every((part: Key, i: number) => compareKeys(part, key[i]) === 0);
}

/** True when `query` selects `key`. */
export function querySelects(query: Query, key: Key): boolean {
  if (!isKeyRange(query)) return compareKeys(query, key) === 0;
  return aboveLower(query, key) && belowUpper(query, key);
}

function aboveLower(range: KeyRange, key: Key): boolean {
  if (range.lower === undefined) return true;
  const order = compareKeys(key, range.lower);
  return range.lowerOpen ? order > 0 : order >= 0;
}

function belowUpper(range: KeyRange, key: Key): boolean {
  if (range.upper === undefined) return true;
  const order = compareKeys(key, range.upper);
  return range.upperOpen ? order < 0 : order <= 0;
}

/**
 * True when `query` may select a key that starts with `prefix` (an array key's first elements):
 * exact for a single key, and for a range never false when it does (it may say true for a range
 * that only borders the prefix's keys).
 * @example querySelectsPrefix(keyRange.bound(['b', ''], ['b', '\uffff']), ['a']) // false
 */
export function querySelectsPrefix(query: Query, prefix: Key): boolean {
  if (!isKeyRange(query)) return isKeyPrefix(prefix, query);
  // The prefix's keys start at the prefix itself; every one sorts below a key above all of
  // them, which is a key that is not one of them and is above the prefix.
  const { lower, upper } = query;
  if (upper !== undefined && compareKeys(upper, prefix) < 0) return false;
  if (lower !== undefined && compareKeys(lower, prefix) > 0 && !isKeyPrefix(prefix, lower)) return false;
  return true;
}

/**
 * True when `change` may have changed a record whose key is `key`, or, with `prefix`, any record
 * whose key starts with `key`.
 */
export function changeTouches(change: Change, key: Key, prefix = false): boolean {
  if (change.kind === 'clear') return true;
  if (change.kind === 'put') return prefix ? isKeyPrefix(key, change.key) : compareKeys(key, change.key) === 0;
  return prefix ? querySelectsPrefix(change.query, key) : querySelects(change.query, key);
}

/**
 * A writable store that notes each change it is asked for in `changes` (a put's key once the
 * engine gives it), then does it. Reads pass straight through.
 */
export class RecordingStore<S extends Schema, N extends StoreName<S>> implements WritableStore<S, N> {
  constructor(
    private readonly inner: WritableStore<S, N>,
    private readonly changes: Change[],
  ) {}

  index: WritableStore<S, N>['index'] = (name) => this.inner.index(name);
  get: WritableStore<S, N>['get'] = (query) => this.inner.get(query);
  getKey: WritableStore<S, N>['getKey'] = (query) => this.inner.getKey(query);
  getAll: WritableStore<S, N>['getAll'] = (query, count, direction) => this.inner.getAll(query, count, direction);
  getAllKeys: WritableStore<S, N>['getAllKeys'] = (query, count, direction) =>
    this.inner.getAllKeys(query, count, direction);
  count: WritableStore<S, N>['count'] = (query) => this.inner.count(query);
  iterate: WritableStore<S, N>['iterate'] = (query, direction) => this.inner.iterate(query, direction);

  add(value: S[N]['value'], key?: S[N]['key']): Promise<S[N]['key']> {
    return this.#stored(value, key, this.inner.add(value, key));
  }

  put(value: S[N]['value'], key?: S[N]['key']): Promise<S[N]['key']> {
    return this.#stored(value, key, this.inner.put(value, key));
  }

  delete(query: Query): Promise<void> {
    this.changes.push({ kind: 'delete', query });
    return this.inner.delete(query);
  }

  clear(): Promise<void> {
    this.changes.push({ kind: 'clear' });
    return this.inner.clear();
  }

  /** Notes the put in request order now; its key is known once the engine answers (before the commit). */
  #stored(value: unknown, key: Key | undefined, request: Promise<S[N]['key']>): Promise<S[N]['key']> {
    const change: Change & { kind: 'put' } = { kind: 'put', key: key as Key, value };
    this.changes.push(change);
    request.then(
      (stored) => {
        change.key = stored;
      },
      () => undefined,
    );
    return request;
  }
}

/**
 * The storage port: what the platform core asks of a database, in words of its own, so that one
 * adapter per engine (IndexedDB in the browser, SQLite-backed Durable Objects on the server) is
 * all a new host needs. No engine type appears here.
 *
 * The model is the one both engines can keep: named stores of records, each with a primary key
 * and named secondary indexes; keys ordered as below; reads and writes inside transactions over
 * a declared set of stores. The guarantees every adapter keeps are stated on each member and
 * tested by one shared suite (`test/unit/store/adapter-suite.ts`):
 *
 * - **Key order.** Numbers sort before strings, strings before arrays; numbers by value, strings
 *   by UTF-16 code units, arrays element by element with a prefix first. `[id, []]` is therefore
 *   above every `[id, <string>]`, and `'\uffff'` above every ordinary string.
 * - **Atomic writes.** `write` commits everything its body did, or, when the body throws or a
 *   request fails, nothing: no record and no appended event is left behind.
 * - **Serial writes.** Writes whose stores overlap run one after the other, in the order they
 *   were started; a read started after a write resolved sees it.
 * - **Failures by name.** A request fails with an `Error` (a `DOMException` on both engines)
 *   named as IndexedDB names it: `ConstraintError` for a primary key `add` finds taken or a
 *   unique index would repeat, `DataError` for a value without its key or a `get`, `getKey` or
 *   `delete` without a query, `QuotaExceededError` when the engine is full. A record count is
 *   a whole number (a fraction is cut, 0 is every record, a negative one a `TypeError`). The HTTP
 *   edge maps them once.
 * - **Bodies await only the port.** A transaction stays open while its body awaits requests of
 *   the same transaction. Awaiting anything else (hashing, `fetch`, a timer) may end it, so do
 *   that work before the transaction starts.
 */

/** A key: what a primary key or an index key may be. */
export type Key = number | string | readonly Key[];

/** A range of keys; a missing bound is open-ended. */
export interface KeyRange {
  readonly lower?: Key;
  readonly upper?: Key;
  /** Whether `lower` itself is excluded. */
  readonly lowerOpen?: boolean;
  /** Whether `upper` itself is excluded. */
  readonly upperOpen?: boolean;
}

/** What a read selects: one key, or a range of keys. */
export type Query = Key | KeyRange;

/** Ascending (`next`) or descending (`prev`) key order. */
export type Direction = 'next' | 'prev';

/**
 * Key ranges, named as IndexedDB's `IDBKeyRange` names them.
 * @example tx.store('lobby_messages').getAll(keyRange.bound([lobbyId, ''], [lobbyId, '\uffff']), 200)
 */
export const keyRange = {
  only: (key: Key): KeyRange => ({ lower: key, upper: key }),
  bound: (lower: Key, upper: Key, lowerOpen = false, upperOpen = false): KeyRange => ({
    lower,
    upper,
    lowerOpen,
    upperOpen,
  }),
  lowerBound: (lower: Key, open = false): KeyRange => ({ lower, lowerOpen: open }),
  upperBound: (upper: Key, open = false): KeyRange => ({ upper, upperOpen: open }),
};

/** True for a {@link KeyRange}, false for a single key. */
export function isKeyRange(query: Query): query is KeyRange {
  return typeof query === 'object' && !Array.isArray(query);
}

/** One store of a schema: the type of its primary key, its records and each index's key. */
export interface StoreShape {
  key: Key;
  value: unknown;
  indexes?: Record<string, Key>;
}

/** A database schema: every store by name. */
export type Schema = { [name: string]: StoreShape };

/** The names of a schema's stores. */
export type StoreName<S extends Schema> = keyof S & string;

/** The names of one store's indexes. */
export type IndexName<S extends Schema, N extends StoreName<S>> = keyof NonNullable<S[N]['indexes']> & string;

/** One record read in key order: its key (the index key for an index), primary key and value. */
export interface Entry<V, K extends Key, IK extends Key = K> {
  key: IK;
  primaryKey: K;
  value: V;
}

/**
 * Reads over a store or one of its indexes. For an index, queries are index keys, results are in
 * index key order (then primary key order), and `getKey` / `getAllKeys` give primary keys.
 */
export interface ReadableRange<V, K extends Key, IK extends Key = K> {
  /** The first record in key order that `query` selects. */
  get(query: Query): Promise<V | undefined>;
  /** The primary key of the first record that `query` selects. */
  getKey(query: Query): Promise<K | undefined>;
  /** The records `query` selects (every record when it is omitted or null), at most `count`. */
  getAll(query?: Query | null, count?: number, direction?: Direction): Promise<V[]>;
  /** The primary keys of the records `query` selects, at most `count`. */
  getAllKeys(query?: Query | null, count?: number, direction?: Direction): Promise<K[]>;
  /** How many records `query` selects. */
  count(query?: Query | null): Promise<number>;
  /**
   * The selected records one at a time, in `direction`, for reads that stop on a condition of
   * the records. Stop early with `break`.
   * @example for await (const { value } of tx.store('entitlements').index('by_user').iterate(range, 'prev')) { ... }
   */
  iterate(query?: Query | null, direction?: Direction): AsyncIterable<Entry<V, K, IK>>;
}

/** Reads of one store, and its indexes. */
export interface ReadableStore<S extends Schema, N extends StoreName<S>>
  extends ReadableRange<S[N]['value'], S[N]['key']> {
  index<I extends IndexName<S, N>>(
    name: I,
  ): ReadableRange<S[N]['value'], S[N]['key'], NonNullable<S[N]['indexes']>[I] & Key>;
}

/** Reads and writes of one store. `key` is given only for a store whose records do not carry theirs. */
export interface WritableStore<S extends Schema, N extends StoreName<S>> extends ReadableStore<S, N> {
  /** Stores a new record; fails with `ConstraintError` when its key is taken. Resolves with its key. */
  add(value: S[N]['value'], key?: S[N]['key']): Promise<S[N]['key']>;
  /** Stores a record, replacing the one with the same key. Resolves with its key. */
  put(value: S[N]['value'], key?: S[N]['key']): Promise<S[N]['key']>;
  /** Removes the records `query` selects. */
  delete(query: Query): Promise<void>;
  /** Removes every record. */
  clear(): Promise<void>;
}

/** A read-only transaction over the stores `N`. */
export interface ReadTransaction<S extends Schema, N extends StoreName<S> = StoreName<S>> {
  store<M extends N>(name: M): ReadableStore<S, M>;
}

/** A read-write transaction over the stores `N`. */
export interface WriteTransaction<S extends Schema, N extends StoreName<S> = StoreName<S>>
  extends ReadTransaction<S, N> {
  store<M extends N>(name: M): WritableStore<S, M>;
  /**
   * Says that no request follows those already made: the engine may commit as soon as they are
   * done, instead of first handing their results to the writer and waiting to hear that nothing
   * follows (IndexedDB's `commit()`: the write holds its stores one round trip less). The write
   * still resolves only once committed, and fails as before when one of those requests fails. A
   * request made after it is refused (`TransactionInactiveError`), and whether what came before
   * is kept then differs between engines: call it only where nothing but those requests can fail.
   */
  commit(): void;
}

/**
 * One engine: what an adapter implements. The platform uses it through `Storage`
 * (`storage.ts`), which adds the event log and the after-commit hook once for every engine.
 */
export interface StorageEngine<S extends Schema> {
  /**
   * A read-only transaction over `stores`: reads issued on it see one state of the database as
   * long as the caller awaits nothing but those reads in between.
   */
  read<N extends StoreName<S>>(stores: readonly N[]): ReadTransaction<S, N>;
  /**
   * Runs `body` in one read-write transaction over `stores` and resolves with its result once
   * everything it did is committed (durable). When `body` throws or one of its requests fails,
   * nothing it did is kept and the error is thrown again.
   */
  write<N extends StoreName<S>, T>(stores: readonly N[], body: (tx: WriteTransaction<S, N>) => Promise<T>): Promise<T>;
  /** Lets go of the engine; later calls fail. */
  close(): void;
  /**
   * How the engine keeps a `CryptoKey`: `as-is` (IndexedDB clones it, a non-extractable key
   * included) or `exported` (as its JWK: the key must be extractable when written, and is read
   * back non-extractable). Undefined means `as-is`.
   */
  readonly cryptoKeys?: 'as-is' | 'exported';
}

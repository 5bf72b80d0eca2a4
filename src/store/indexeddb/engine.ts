/**
 * The IndexedDB adapter of the storage port, through `idb`. Each port object is a thin view of
 * the IndexedDB object it stands for: queries become `IDBKeyRange`s, descending reads use the
 * `getAll` options form where the browser has it and a cursor elsewhere (fake-indexeddb, older
 * browsers), and IndexedDB's own `DOMException`s pass through unchanged.
 */
import type { IDBPDatabase, IDBPIndex, IDBPObjectStore, IDBPTransaction } from 'idb';
import {
  type Direction,
  type Entry,
  isKeyRange,
  type Key,
  type Query,
  type ReadableRange,
  type ReadTransaction,
  type Schema,
  type StorageEngine,
  type StoreName,
  type WriteTransaction,
  type WritableStore,
} from '../port';

// The port's types say what each store holds; idb is used here untyped, one level below them.
type AnyDatabase = IDBPDatabase<unknown>;
type AnySource =
  | IDBPObjectStore<unknown, string[], string, IDBTransactionMode>
  | IDBPIndex<unknown, string[], string, string, IDBTransactionMode>;
type AnyTransaction = IDBPTransaction<unknown, string[], IDBTransactionMode>;

/** The IndexedDB form of a port query. */
export function toIdbQuery(query: Query | null | undefined): IDBValidKey | IDBKeyRange | null | undefined {
  if (query === null || query === undefined || !isKeyRange(query)) return query as IDBValidKey | null | undefined;
  const { lower, upper, lowerOpen = false, upperOpen = false } = query;
  if (lower !== undefined && upper !== undefined) {
    return IDBKeyRange.bound(lower as IDBValidKey, upper as IDBValidKey, lowerOpen, upperOpen);
  }
  if (lower !== undefined) return IDBKeyRange.lowerBound(lower as IDBValidKey, lowerOpen);
  if (upper !== undefined) return IDBKeyRange.upperBound(upper as IDBValidKey, upperOpen);
  return null;
}

/** Whether `getAll` takes its options form (`{ query, count, direction }`): Chromium 141 and later. */
const getAllTakesOptions = typeof IDBObjectStore !== 'undefined' && 'getAllRecords' in IDBObjectStore.prototype;

/** Reads over one object store or index. */
class IdbRange<V, K extends Key, IK extends Key> implements ReadableRange<V, K, IK> {
  constructor(protected readonly source: AnySource) {}

  get(query: Query): Promise<V | undefined> {
    return this.source.get(toIdbQuery(query) as IDBValidKey) as Promise<V | undefined>;
  }

  getKey(query: Query): Promise<K | undefined> {
    return this.source.getKey(toIdbQuery(query) as IDBValidKey) as Promise<K | undefined>;
  }

  async getAll(query?: Query | null, count?: number, direction: Direction = 'next'): Promise<V[]> {
    const idbQuery = toIdbQuery(query);
    if (direction === 'next') return this.source.getAll(idbQuery, count) as Promise<V[]>;
    if (getAllTakesOptions) {
      const raw = this.source as unknown as { getAll(options: object): Promise<V[]> };
      return raw.getAll({ query: idbQuery, count, direction: 'prev' });
    }
    const values: V[] = [];
    for (let cursor = await this.source.openCursor(idbQuery, 'prev'); cursor; cursor = await cursor.continue()) {
      values.push(cursor.value as V);
      if (values.length === count) break;
    }
    return values;
  }

  async getAllKeys(query?: Query | null, count?: number, direction: Direction = 'next'): Promise<K[]> {
    const idbQuery = toIdbQuery(query);
    if (direction === 'next') return this.source.getAllKeys(idbQuery, count) as Promise<K[]>;
    const keys: K[] = [];
    for (let cursor = await this.source.openKeyCursor(idbQuery, 'prev'); cursor; cursor = await cursor.continue()) {
      keys.push(cursor.primaryKey as K);
      if (keys.length === count) break;
    }
    return keys;
  }

  count(query?: Query | null): Promise<number> {
    return this.source.count(toIdbQuery(query));
  }

  async *iterate(query?: Query | null, direction: Direction = 'next'): AsyncIterable<Entry<V, K, IK>> {
    for (let cursor = await this.source.openCursor(toIdbQuery(query), direction); cursor; ) {
      yield { key: cursor.key as IK, primaryKey: cursor.primaryKey as K, value: cursor.value as V };
      cursor = await cursor.continue();
    }
  }
}

/** Reads and writes of one object store. */
class IdbStore<V, K extends Key> extends IdbRange<V, K, K> implements WritableStore<Schema, string> {
  constructor(private readonly store: IDBPObjectStore<unknown, string[], string, IDBTransactionMode>) {
    super(store);
  }

  index(name: string): ReadableRange<V, K, Key> {
    return new IdbRange(this.store.index(name));
  }

  add(value: unknown, key?: Key): Promise<K> {
    return this.store.add!(value, key as IDBValidKey | undefined) as Promise<K>;
  }

  put(value: unknown, key?: Key): Promise<K> {
    return this.store.put!(value, key as IDBValidKey | undefined) as Promise<K>;
  }

  delete(query: Query): Promise<void> {
    return this.store.delete!(toIdbQuery(query) as IDBValidKey);
  }

  clear(): Promise<void> {
    return this.store.clear!();
  }
}

/** A port transaction over one IndexedDB transaction. */
class IdbTransaction {
  constructor(private readonly tx: AnyTransaction) {}

  store(name: string): IdbStore<unknown, Key> {
    return new IdbStore(this.tx.objectStore(name));
  }

  commit(): void {
    // Older engines (and a read transaction) have none: they commit once the requests are done.
    (this.tx as unknown as Partial<Pick<IDBTransaction, 'commit'>>).commit?.();
  }
}

/**
 * The storage port over an open IndexedDB database.
 * @example const engine = new IndexedDbEngine<PlatformDB>(await openDB('platformpp', DB_VERSION, { upgrade }));
 */
export class IndexedDbEngine<S extends Schema> implements StorageEngine<S> {
  constructor(readonly database: AnyDatabase) {}

  read<N extends StoreName<S>>(stores: readonly N[]): ReadTransaction<S, N> {
    return new IdbTransaction(
      this.database.transaction(stores as unknown as string[], 'readonly'),
    ) as unknown as ReadTransaction<S, N>;
  }

  async write<N extends StoreName<S>, T>(
    stores: readonly N[],
    body: (tx: WriteTransaction<S, N>) => Promise<T>,
  ): Promise<T> {
    // Created before the first await: IndexedDB orders transactions by when they were created.
    const tx = this.database.transaction(stores as unknown as string[], 'readwrite');
    // A failed request aborts the transaction at once, maybe before the body hears of it.
    const outcome = tx.done.catch(() => undefined);
    try {
      const result = await body(new IdbTransaction(tx) as unknown as WriteTransaction<S, N>);
      await tx.done;
      return result;
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already finished or aborted.
      }
      await outcome;
      // Once the abort is done, `tx.error` names the request that failed; the rejection may not.
      const reason = tx.error;
      // When a request failed, the requests after it fail as aborted: the first failure says why.
      const aborted = error instanceof Error && error.name === 'AbortError';
      throw aborted && reason instanceof Error && reason.name !== 'AbortError' ? reason : error;
    }
  }

  close(): void {
    this.database.close();
  }
}

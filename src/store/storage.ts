/**
 * `Storage`: the port as the platform uses it, the same over every engine. It adds to an
 * engine's transactions the two things the architecture asks of every write (rules 2 and 3):
 * appending to the durable event log inside the write's own transaction, and one named
 * after-commit hook, `onCommit`, through which the rest of a context learns what a write changed
 * (the announcement to other contexts, the webhook outbox, a read cache) without patching it.
 * A commit names the stores the write could change and, record by record, what it did change.
 */
import { type Change, type Changes, RecordingStore } from './changes';
import type {
  IndexName,
  Key,
  Query,
  ReadTransaction,
  Schema,
  StorageEngine,
  StoreName,
  WriteTransaction,
} from './port';

/** A record of the event log once appended: its sequence number is its key. */
export type Logged<E> = E & { seq: number };

/** What a committed write changed. */
export interface Commit<S extends Schema, E> {
  /** The stores the write could change. */
  stores: readonly StoreName<S>[];
  /** The events it appended, in order, with their sequence numbers (consecutive). */
  events: readonly Logged<E>[];
  /**
   * What it did to each store it changed, in order (the event log's appends are `events`). A
   * put's value is the record as the body passed it: a body never changes a record after
   * putting it (the engine stored a copy, so such a change would be lost anyway).
   */
  changes: Changes<S>;
}

/** A read-write transaction that can also append to the event log. */
export interface LogWriteTransaction<S extends Schema, N extends StoreName<S>, E> extends WriteTransaction<S, N> {
  /**
   * Appends `event` to the log in this transaction; resolves with its sequence number. The
   * event is durable exactly when the rest of the write is.
   */
  append(event: E): Promise<number>;
}

/** Called after each committed write, before the writer's promise resolves. */
export type CommitListener<S extends Schema, E> = (commit: Commit<S, E>) => void;

/** The value type of store `N`. */
type Value<S extends Schema, N extends StoreName<S>> = S[N]['value'];

/**
 * The platform's database over one engine. `L` is the event log's store: an auto-increment
 * store whose records are events of type `E`.
 * @example const storage = new Storage<PlatformDB, 'events', EventRecord>(engine, 'events');
 */
export class Storage<S extends Schema, L extends StoreName<S>, E extends Value<S, L> = Value<S, L>> {
  readonly #listeners = new Set<CommitListener<S, E>>();
  /** How many writes over each store have begun and not finished (committed and heard, or failed). */
  readonly #writing = new Map<string, number>();

  constructor(
    readonly engine: StorageEngine<S>,
    /** The event log's store. */
    readonly log: L,
  ) {}

  /** A read-only transaction over `stores` (see `StorageEngine.read`). */
  read<N extends StoreName<S>>(stores: N | readonly N[]): ReadTransaction<S, N> {
    return this.engine.read(typeof stores === 'string' ? [stores] : stores);
  }

  /**
   * Runs `body` in one read-write transaction over `stores`, resolves once committed, after the
   * commit listeners ran. When `body` throws, nothing it did is stored and no listener hears of
   * it. `append` needs the log among `stores`: a write that never appends leaves it out, so it
   * does not wait for writes that do. `changes` are the stores it may change, when fewer than
   * `stores` (it only reads the others): see {@link Storage.isWriting}.
   * @example await storage.write(['lobbies', 'events'], async (tx) => { await tx.store('lobbies').put(lobby); tx.append(event); });
   */
  async write<N extends StoreName<S>, T>(
    stores: readonly N[],
    body: (tx: LogWriteTransaction<S, N, E>) => Promise<T>,
    changes: readonly N[] = stores,
  ): Promise<T> {
    // Counted before the engine orders the write (it does so as it is called): see `isWriting`.
    for (const store of changes) this.#writing.set(store, (this.#writing.get(store) ?? 0) + 1);
    try {
      return await this.#write(stores, body);
    } finally {
      for (const store of changes) this.#writing.set(store, this.#writing.get(store)! - 1);
    }
  }

  /**
   * True while a write of this storage that may change one of `stores` (those it named as
   * `changes`, by default all it writes over) has begun and not finished, so its commit listeners
   * have not heard of it yet. A write begun while this is false is ordered after every write of
   * this storage that changed them (writes over common stores run as they were begun), and their
   * listeners have all run.
   */
  isWriting(stores: readonly StoreName<S>[]): boolean {
    return stores.some((store) => (this.#writing.get(store) ?? 0) > 0);
  }

  async #write<N extends StoreName<S>, T>(
    stores: readonly N[],
    body: (tx: LogWriteTransaction<S, N, E>) => Promise<T>,
  ): Promise<T> {
    const appended: E[] = [];
    const seqs: Promise<number>[] = [];
    const changes = new Map<StoreName<S>, Change[]>();
    const result = await this.engine.write(stores, async (tx) => {
      const logTx: LogWriteTransaction<S, N, E> = {
        commit: () => tx.commit(),
        store: <M extends N>(name: M) => {
          if ((name as string) === this.log) return tx.store(name);
          let noted = changes.get(name);
          if (!noted) changes.set(name, (noted = []));
          return new RecordingStore(tx.store(name), noted);
        },
        append: (event) => {
          const seq = (tx as unknown as WriteTransaction<S, L>).store(this.log).add(event) as Promise<number>;
          // When the body throws, the abort rejects this request while nobody awaits it.
          seq.catch(() => undefined);
          appended.push(event);
          seqs.push(seq);
          return seq;
        },
      };
      const value = await body(logTx);
      const keys = await Promise.all(seqs);
      appended.forEach((event, i) => {
        (event as Logged<E>).seq = keys[i];
      });
      return value;
    });
    for (const [name, noted] of changes) if (noted.length === 0) changes.delete(name);
    const commit: Commit<S, E> = { stores, events: appended as Logged<E>[], changes };
    for (const listener of this.#listeners) listener(commit);
    return result;
  }

  /**
   * Calls `listener` after every write this storage commits; returns the way to stop.
   * @example const stop = storage.onCommit(({ stores }) => cache.invalidate(stores));
   */
  onCommit(listener: CommitListener<S, E>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The first record of `store` that `query` selects. */
  get<N extends StoreName<S>>(store: N, query: Query): Promise<Value<S, N> | undefined> {
    return this.read(store).store(store).get(query);
  }

  /** The records of `store` that `query` selects, at most `count`. */
  getAll<N extends StoreName<S>>(store: N, query?: Query | null, count?: number): Promise<Value<S, N>[]> {
    return this.read(store).store(store).getAll(query, count);
  }

  /** The primary key of the first record of `store` that `query` selects. */
  getKey<N extends StoreName<S>>(store: N, query: Query): Promise<S[N]['key'] | undefined> {
    return this.read(store).store(store).getKey(query);
  }

  /** The primary keys of the records of `store` that `query` selects, at most `count`. */
  getAllKeys<N extends StoreName<S>>(store: N, query?: Query | null, count?: number): Promise<S[N]['key'][]> {
    return this.read(store).store(store).getAllKeys(query, count);
  }

  /** How many records of `store` `query` selects. */
  count<N extends StoreName<S>>(store: N, query?: Query | null): Promise<number> {
    return this.read(store).store(store).count(query);
  }

  /** The first record of `store` whose `index` key `query` selects. */
  getFromIndex<N extends StoreName<S>>(
    store: N,
    index: IndexName<S, N>,
    query: Query,
  ): Promise<Value<S, N> | undefined> {
    return this.read(store).store(store).index(index).get(query);
  }

  /** The records of `store` whose `index` key `query` selects, at most `count`. */
  getAllFromIndex<N extends StoreName<S>>(
    store: N,
    index: IndexName<S, N>,
    query?: Query | null,
    count?: number,
  ): Promise<Value<S, N>[]> {
    return this.read(store).store(store).index(index).getAll(query, count);
  }

  /** The primary key of the first record of `store` whose `index` key `query` selects. */
  getKeyFromIndex<N extends StoreName<S>>(
    store: N,
    index: IndexName<S, N>,
    query: Query,
  ): Promise<S[N]['key'] | undefined> {
    return this.read(store).store(store).index(index).getKey(query);
  }

  /** The primary keys of the records of `store` whose `index` key `query` selects. */
  getAllKeysFromIndex<N extends StoreName<S>>(
    store: N,
    index: IndexName<S, N>,
    query?: Query | null,
    count?: number,
  ): Promise<S[N]['key'][]> {
    return this.read(store).store(store).index(index).getAllKeys(query, count);
  }

  /** How many records of `store` have an `index` key `query` selects. */
  countFromIndex<N extends StoreName<S>>(store: N, index: IndexName<S, N>, query?: Query | null): Promise<number> {
    return this.read(store).store(store).index(index).count(query);
  }

  /** Stores one record in a write of its own (see `WritableStore.put`). */
  put<N extends StoreName<S>>(store: N, value: Value<S, N>, key?: S[N]['key']): Promise<S[N]['key']> {
    return this.write([store], (tx) => tx.store(store).put(value, key));
  }

  /** Stores one new record in a write of its own (see `WritableStore.add`). */
  add<N extends StoreName<S>>(store: N, value: Value<S, N>, key?: S[N]['key']): Promise<S[N]['key']> {
    return this.write([store], (tx) => tx.store(store).add(value, key));
  }

  /** Removes the records `query` selects, in a write of its own. */
  delete<N extends StoreName<S>>(store: N, query: Query): Promise<void> {
    return this.write([store], (tx) => tx.store(store).delete(query));
  }

  /** The newest sequence number of the log, 0 when it is empty. */
  async latestSeq(): Promise<number> {
    const [seq] = await this.read(this.log).store(this.log).getAllKeys(null, 1, 'prev');
    return (seq as number | undefined) ?? 0;
  }

  /** Events of the log with a sequence number above `after`, oldest first, at most `limit`. */
  readLogAfter(after: number, limit: number): Promise<Logged<E>[]> {
    return this.read(this.log)
      .store(this.log)
      .getAll({ lower: after as Key, lowerOpen: true }, limit) as Promise<Logged<E>[]>;
  }

  /**
   * Whether a `CryptoKey` must be made extractable to be stored here (see
   * `StorageEngine.cryptoKeys`). Code that makes keys to store asks, so it keeps keys
   * non-extractable wherever the engine allows.
   * @example const pair = await crypto.subtle.generateKey(alg, db.keysMustBeExtractable, usages);
   */
  get keysMustBeExtractable(): boolean {
    return this.engine.cryptoKeys === 'exported';
  }

  /** Lets go of the engine. */
  close(): void {
    this.engine.close();
  }
}

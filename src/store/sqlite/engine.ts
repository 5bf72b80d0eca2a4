/**
 * The SQLite adapter of the storage port: SQLite-backed Durable Objects on the server, or any
 * SQLite through the facade of `sql.ts`. Tables come from the catalogue (`tables.ts`), keys are
 * order-preserving bytes (`key-codec.ts`), records structured-clone data as tagged JSON
 * (`value-codec.ts`).
 *
 * Transactions, as the port promises them over one SQLite connection:
 * - Writes run one at a time, in the order they were started, each in one SQL transaction that
 *   commits when its body and every request it made succeeded and rolls back otherwise.
 *   Requests of a write run in the order they were made.
 * - A read waits while a write over any of the stores it reads is open, so it never sees
 *   what may yet be rolled back; a read of other stores runs at once, as IndexedDB runs a
 *   read-only transaction beside a read-write one over other stores.
 * - Each statement reads committed data; a read transaction whose body awaits between two
 *   reads may see a write that committed in between (IndexedDB would show it the older state).
 */
import type { Catalogue, StoreDefinition } from '../catalogue';
import type { ReadTransaction, Schema, StorageEngine, StoreName, WriteTransaction } from '../port';
import { type ReadGate, SqliteRange } from './reads';
import type { SqlConnection } from './sql';
import { applyCatalogue } from './tables';
import { SqliteWriteStore, type WriteScope } from './writes';

/** An SQLite error as the port names failures (IndexedDB's names). */
export function portError(error: unknown): unknown {
  if (error instanceof DOMException || !(error instanceof Error)) return error;
  if (/constraint/i.test(error.message)) return new DOMException(error.message, 'ConstraintError');
  if (/SQLITE_FULL|database or disk is full|too big/i.test(error.message)) {
    return new DOMException(error.message, 'QuotaExceededError');
  }
  return error;
}

const noop = () => undefined;

/** Runs `read` at once, its failure as a rejection named as the port names it. */
function runNow<T>(read: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(read()).catch((error) => Promise.reject(portError(error)));
  } catch (error) {
    return Promise.reject(portError(error));
  }
}

/** The stores of a transaction by name; a store outside its scope is refused, as IndexedDB does. */
function scoped(catalogue: Catalogue<Schema>, stores: readonly string[], name: string): StoreDefinition {
  if (!stores.includes(name)) {
    throw new DOMException(`Store ${name} is not in this transaction's scope.`, 'NotFoundError');
  }
  return catalogue[name];
}

/** One write: its requests in order, its first failure, its generated keys. */
class SqliteWriteTransaction implements WriteScope {
  failure: unknown = undefined;
  active = true;
  #tail: Promise<void> | null = null;
  #inFlight = 0;

  constructor(
    private readonly engine: SqliteEngine<Schema>,
    private readonly stores: readonly string[],
  ) {}

  store(name: string): SqliteWriteStore<unknown, never> {
    const definition = scoped(this.engine.catalogue as Catalogue<Schema>, this.stores, name);
    return new SqliteWriteStore(this.engine.sql, name, definition, this);
  }

  /** The SQL transaction commits once the body is done anyway; what follows is refused, as IndexedDB does. */
  commit(): void {
    this.active = false;
  }

  readonly request: ReadGate = <T>(op: () => T | Promise<T>): Promise<T> => {
    if (!this.active)
      return Promise.reject(new DOMException('The transaction has finished.', 'TransactionInactiveError'));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.#tail === null) {
      let result: T | Promise<T>;
      try {
        result = op();
      } catch (error) {
        return Promise.reject(this.#fail(error));
      }
      return result instanceof Promise ? this.#track(result) : Promise.resolve(result);
    }
    return this.#track(
      this.#tail.then(() => {
        if (this.failure !== undefined) throw this.failure;
        return op();
      }),
    );
  };

  nextKey(store: string): number {
    return this.engine.nextKey(store);
  }

  sawKey(store: string, key: number): void {
    this.engine.sawKey(store, key);
  }

  /** Resolves once every request made so far has finished. */
  async settled(): Promise<void> {
    while (this.#tail) await this.#tail;
  }

  #fail(error: unknown): unknown {
    const named = portError(error);
    this.failure ??= named;
    return named;
  }

  #track<T>(pending: Promise<T>): Promise<T> {
    this.#inFlight++;
    const tracked = pending.catch((error) => Promise.reject(this.#fail(error)));
    const tail: Promise<void> = tracked.then(noop, noop).then(() => {
      if (--this.#inFlight === 0 && this.#tail === tail) this.#tail = null;
    });
    this.#tail = tail;
    return tracked;
  }
}

/**
 * The storage port over one SQLite database.
 * @example const engine = await SqliteEngine.open(durableObjectSqlConnection(ctx.storage), PLATFORM_CATALOGUE);
 */
export class SqliteEngine<S extends Schema> implements StorageEngine<S> {
  /** CryptoKeys are stored as their JWK: they must be extractable when written. */
  readonly cryptoKeys = 'exported' as const;
  #writes: Promise<unknown> = Promise.resolve();
  #open: { stores: readonly string[]; done: Promise<void> } | null = null;
  #closed = false;
  /** Next keys of auto-increment stores, as committed or as the open write moved them. */
  #sequences = new Map<string, number>();
  #moved = new Set<string>();

  private constructor(
    readonly sql: SqlConnection,
    readonly catalogue: Catalogue<S>,
  ) {}

  /** Opens the engine over `sql`, creating or updating the tables `catalogue` declares. */
  static async open<S extends Schema>(sql: SqlConnection, catalogue: Catalogue<S>): Promise<SqliteEngine<S>> {
    await applyCatalogue(sql, catalogue);
    return new SqliteEngine(sql, catalogue);
  }

  read<N extends StoreName<S>>(stores: readonly N[]): ReadTransaction<S, N> {
    this.#checkOpen();
    const gate: ReadGate = (read) => {
      const open = this.#open;
      if (open && stores.some((store) => open.stores.includes(store))) return open.done.then(() => runNow(read));
      return runNow(read);
    };
    return {
      store: (name: string) => {
        const definition = scoped(this.catalogue as Catalogue<Schema>, stores, name);
        const range = new SqliteRange(this.sql, name, gate);
        return Object.assign(range, {
          index: (index: string) => {
            const indexDefinition = definition.indexes[index];
            if (!indexDefinition) throw new DOMException(`No index ${index} on store ${name}.`, 'NotFoundError');
            return new SqliteRange(this.sql, name, gate, { name: index, definition: indexDefinition });
          },
        });
      },
    } as unknown as ReadTransaction<S, N>;
  }

  write<N extends StoreName<S>, T>(stores: readonly N[], body: (tx: WriteTransaction<S, N>) => Promise<T>): Promise<T> {
    this.#checkOpen();
    const run = this.#writes.then(() => this.#run(stores, body));
    this.#writes = run.then(noop, noop);
    return run;
  }

  close(): void {
    this.#closed = true;
  }

  /** The next key of `store`'s generator (see {@link WriteScope.nextKey}). */
  nextKey(store: string): number {
    const next = this.#next(store);
    this.#sequences.set(store, next + 1);
    this.#moved.add(store);
    return next;
  }

  /** Raises `store`'s generator past `key`. */
  sawKey(store: string, key: number): void {
    if (key >= this.#next(store)) {
      this.#sequences.set(store, Math.floor(key) + 1);
      this.#moved.add(store);
    }
  }

  #next(store: string): number {
    let next = this.#sequences.get(store);
    if (next === undefined) {
      const [row] = this.sql.exec('SELECT next FROM _sequences WHERE name = ?', store);
      next = (row?.next as number | undefined) ?? 1;
      this.#sequences.set(store, next);
    }
    return next;
  }

  async #run<N extends StoreName<S>, T>(
    stores: readonly N[],
    body: (tx: WriteTransaction<S, N>) => Promise<T>,
  ): Promise<T> {
    let release: () => void = noop;
    this.#open = { stores, done: new Promise<void>((resolve) => (release = resolve)) };
    const tx = new SqliteWriteTransaction(this as unknown as SqliteEngine<Schema>, stores);
    try {
      return await this.sql.transaction(async () => {
        let result: T;
        try {
          result = await body(tx as unknown as WriteTransaction<S, N>);
        } catch (error) {
          await tx.settled();
          throw tx.failure ?? error;
        }
        await tx.settled();
        if (tx.failure !== undefined) throw tx.failure;
        for (const store of this.#moved) {
          this.sql.exec(
            'INSERT INTO _sequences (name, next) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET next = excluded.next',
            store,
            this.#sequences.get(store)!,
          );
        }
        return result;
      });
    } catch (error) {
      // Rolled back: the generators are read again from what is committed.
      for (const store of this.#moved) this.#sequences.delete(store);
      throw portError(error);
    } finally {
      this.#moved.clear();
      tx.active = false;
      this.#open = null;
      release();
    }
  }

  #checkOpen(): void {
    if (this.#closed) throw new DOMException('The database is closed.', 'InvalidStateError');
  }
}

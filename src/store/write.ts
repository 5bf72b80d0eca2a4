/**
 * One write of the platform: a read-write transaction over the named stores plus the event log,
 * committed before the caller answers. Events emitted inside it are appended to the log in the
 * same transaction, durable together with the change (ARCHITECTURE rules 2 and 3); the storage's
 * commit listeners hear of them once committed.
 */
import type { EmittedEvent } from './records/events';
import type { PlatformStorage, PlatformStoreName, WriteTx } from './schema';

export type { WriteTx };

/**
 * A check that runs first in every write of one context (a request's): it may read and write
 * its own stores in the write's transaction, and throwing aborts the write.
 */
export interface WriteGuard {
  stores: readonly PlatformStoreName[];
  check(tx: WriteTx): Promise<void>;
}

/** What a write needs of its context: the database, the time events are stamped with, and a guard. */
export interface WriteContext {
  db: PlatformStorage;
  clock: { now(): number };
  guard?: WriteGuard;
}

/** Appends an event to the log inside the write's transaction; its `data` is typed by its `type`. */
export type Emit = (event: EmittedEvent) => void;

/**
 * Runs `body` in one transaction over `stores` and the event log; resolves with its result once
 * the transaction has committed. If `body` throws, the transaction aborts and nothing is stored.
 * `body` must await only requests of its transaction: anything else (hashing, fetch) may let the
 * transaction end early, so do that work before calling `write`.
 * @example
 * const lobby = await write(ctx, ['lobbies'], async (tx, emit) => { ...; emit({ type: 'LOBBY_UPDATE', data, audience }); return lobby; });
 */
export function write<T>(
  ctx: WriteContext,
  stores: readonly PlatformStoreName[],
  body: (tx: WriteTx, emit: Emit) => Promise<T>,
): Promise<T> {
  const { guard } = ctx;
  const scope = new Set<PlatformStoreName>([...stores, 'events', ...(guard?.stores ?? [])]);
  return ctx.db.write([...scope], async (tx) => {
    if (guard) await guard.check(tx as WriteTx);
    return body(tx as WriteTx, (event) => {
      void tx.append({ channels: ['gateway'], ...event, created_at: ctx.clock.now() });
    });
  });
}

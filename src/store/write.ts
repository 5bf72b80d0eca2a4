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
 * A check that runs in every write of one context (a request's), beside the write's body in the
 * same transaction: it may read and write its own stores there, and throwing aborts the write
 * (its error is the write's, whatever the body did). Like the body, it says `tx.commit()` once it
 * makes no more requests; the write commits early only when both have said so. A guard that
 * throws {@link WriteAgain} has the write run once more from the start (nothing of the first
 * run is kept).
 */
export interface WriteGuard {
  stores: readonly PlatformStoreName[];
  check(tx: WriteTx): Promise<void>;
}

/**
 * What a guard throws when its write must run again, in a new transaction, because the store
 * held what its first run assumed absent (a key it claimed with `add`). The first run aborts,
 * and the write runs once more; a guard throws it at most once per write.
 */
export class WriteAgain extends Error {
  constructor() {
    super('The write runs again.');
    this.name = 'WriteAgain';
  }
}

/** True for the error a request gets once its transaction was aborted by another's failure. */
function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** `tx` as one of the parties of a write sees it: its `commit()` counts once, toward `said`. */
function partyOf(tx: WriteTx, said: () => void): WriteTx {
  let committed = false;
  const commit = () => {
    if (committed) return;
    committed = true;
    said();
  };
  return Object.create(tx, { commit: { value: commit } }) as WriteTx;
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
 * transaction end early, so do that work before calling `write`. A body that says `tx.commit()`
 * after its last request lets the write commit without waiting to hand it their results first.
 * When the context's guard asks for it ({@link WriteAgain}), `body` runs a second time in a new
 * transaction, its first run having left nothing: a body acts through `tx` and `emit` only.
 * `reads` names stores of `stores` that the first run only reads, never changes
 * (`PlatformStorage.isWriting` does not count it for them); a run again may change any.
 * @example
 * const lobby = await write(ctx, ['lobbies'], async (tx, emit) => { ...; emit({ type: 'LOBBY_UPDATE', data, audience }); return lobby; });
 */
export function write<T>(
  ctx: WriteContext,
  stores: readonly PlatformStoreName[],
  body: (tx: WriteTx, emit: Emit) => Promise<T>,
  reads?: readonly PlatformStoreName[],
): Promise<T> {
  const run = { again: false };
  const first = writeOnce(ctx, stores, body, run, reads);
  if (!ctx.guard) return first;
  // Known from the guard itself: an engine may fail the write with the request's own error.
  return first.catch((error: unknown) => {
    if (run.again) return writeOnce(ctx, stores, body, { again: false });
    throw error;
  });
}

/** One run of {@link write}: one transaction; `run.again` is set when its guard asks for another. */
function writeOnce<T>(
  ctx: WriteContext,
  stores: readonly PlatformStoreName[],
  body: (tx: WriteTx, emit: Emit) => Promise<T>,
  run: { again: boolean },
  reads: readonly PlatformStoreName[] = [],
): Promise<T> {
  const { guard } = ctx;
  const scope = new Set<PlatformStoreName>([...stores, 'events', ...(guard?.stores ?? [])]);
  const changes = [...scope].filter((store) => !reads.includes(store));
  return ctx.db.write(
    [...scope],
    async (tx) => {
      const emit: Emit = (event) => {
        void tx.append({ channels: ['gateway'], ...event, created_at: ctx.clock.now() });
      };
      if (!guard) return body(tx as WriteTx, emit);
      // The body and the guard make their requests independently: the transaction may commit
      // early only once neither makes any more.
      let parties = 2;
      const commitWhenBoth = () => {
        if (--parties === 0) tx.commit();
      };
      // The guard's requests and the body's go to the engine together, so the transaction holds
      // its stores for the longer of the two, not their sum. The guard's go first, so their results
      // come back first: the guard has made its last request and said commit() by the time the
      // body makes its own, and the write commits right then. A guard that refuses aborts the
      // write (nothing the body did is kept), and its refusal wins over the body's own error.
      const check = guard.check(partyOf(tx as WriteTx, commitWhenBoth));
      const ran = body(partyOf(tx as WriteTx, commitWhenBoth), emit);
      const [checked, done] = await Promise.allSettled([check, ran]);
      if (checked.status === 'rejected' && checked.reason instanceof WriteAgain) run.again = true;
      if (checked.status === 'rejected' && !isAbort(checked.reason)) throw checked.reason;
      if (done.status === 'rejected') throw done.reason;
      if (checked.status === 'rejected') throw checked.reason;
      return done.value;
    },
    changes,
  );
}

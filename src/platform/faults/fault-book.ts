/**
 * The faults a sandbox has pending (`POST /sandbox/faults`), kept in the `meta` store so that a
 * worker restarted between the injection and the request it applies to still applies it, with a
 * copy in memory for the context that writes them: the HTTP app (the service worker in the
 * browser, the sandbox's object on a server) is their only writer, and every request asks, so the
 * copy keeps a request without pending faults from reading the store. Taking one use of a fault
 * (an HTTP request failed, a webhook delivery refused) commits before the request is answered.
 */
import type { PlatformContext } from '../core/context';
import { FAULT_HISTORY_MAX } from '../core/limits';
import type { FaultRecord, FaultSpec, FaultsState } from '../../store/records/faults';
import { write } from '../../store/write';
import { pathMatches, pathSegments } from './route-patterns';

export type { FaultRecord, FaultSpec, FaultsState };

/** No fault pending, none injected. */
const NONE: FaultsState = Object.freeze({ pending: [], history: [] }) as FaultsState;

/** The uses a fault has: a count for HTTP and webhook faults, none for the gateway's (applied once). */
function usesOf(spec: FaultSpec): number | null {
  return 'count' in spec ? spec.count : null;
}

/** The pending faults of one context's sandbox, and what it injected. */
export class FaultBook {
  #state: Promise<FaultsState> | null = null;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: PlatformContext) {}

  /** The faults as stored (read once per start of the context). */
  state(): Promise<FaultsState> {
    this.#state ??= this.ctx.db.get('meta', 'faults').then((s) => (s as FaultsState | undefined) ?? NONE);
    return this.#state;
  }

  /** Forgets the copy in memory (after a reset emptied the store). */
  forget(): void {
    this.#state = null;
  }

  /**
   * Records a fault: pending when it has uses (HTTP, webhook), and in the history in any case.
   * `via` is the request's context, whose write guard applies the injection once.
   * @example await book.inject({ type: 'http_error', method: 'POST', path: '/api/channels/*\/messages', count: 1, status: 502, retry_after: 1 });
   */
  inject(spec: FaultSpec, via: PlatformContext = this.ctx): Promise<FaultRecord> {
    return this.#update(via, (state) => {
      const uses = usesOf(spec);
      const fault: FaultRecord = {
        ...spec,
        id: this.ctx.ids.next(),
        created_at: this.ctx.clock.now(),
        remaining: uses,
      };
      const history = [...state.history, fault].slice(-FAULT_HISTORY_MAX);
      return [{ pending: uses === null ? state.pending : [...state.pending, fault], history }, fault];
    });
  }

  /** Drops every pending fault (the history stays until a reset); `via` as for {@link inject}. */
  clear(via: PlatformContext = this.ctx): Promise<void> {
    return this.#update(via, (state) => [{ pending: [], history: state.history }, undefined]);
  }

  /**
   * Takes one use of the oldest pending HTTP fault matching the request (`path` without the base
   * path and `/.proxy`), or resolves null at once when none is pending.
   */
  async takeHttp(method: string, path: string): Promise<FaultRecord | null> {
    const state = await this.state();
    if (!state.pending.some((f) => f.type === 'http_error' || f.type === 'http_delay')) return null;
    return this.#take(
      (f) =>
        (f.type === 'http_error' || f.type === 'http_delay') &&
        (f.method === '*' || f.method === method || (f.method === 'GET' && method === 'HEAD')) &&
        pathMatches(pathSegments(f.path), path),
    );
  }

  /** Takes one use of a pending webhook failure for `applicationId`'s deliveries, or null. */
  async takeWebhook(applicationId: string): Promise<FaultRecord | null> {
    const state = await this.state();
    if (!state.pending.some((f) => f.type === 'webhook_failure')) return null;
    return this.#take((f) => f.type === 'webhook_failure' && f.application_id === applicationId);
  }

  #take(matches: (fault: FaultRecord) => boolean): Promise<FaultRecord | null> {
    return this.#update(this.ctx, (state) => {
      const fault = state.pending.find(matches);
      if (!fault) return [null, null];
      const remaining = (fault.remaining ?? 1) - 1;
      const pending =
        remaining > 0
          ? state.pending.map((f) => (f === fault ? { ...f, remaining } : f))
          : state.pending.filter((f) => f !== fault);
      return [
        { ...state, pending },
        { ...fault, remaining },
      ];
    });
  }

  /**
   * Changes the state one change at a time, committing before the copy in memory moves on;
   * `change` answers the new state (null: unchanged) and the result.
   */
  #update<T>(via: PlatformContext, change: (state: FaultsState) => [FaultsState | null, T]): Promise<T> {
    const run = this.#chain.then(async () => {
      const [next, result] = change(await this.state());
      if (next) {
        await write(via, ['meta'], async (tx) => void (await tx.store('meta').put(next, 'faults')));
        this.#state = Promise.resolve(next);
      }
      return result;
    });
    this.#chain = run.catch(() => undefined);
    return run;
  }
}

const books = new WeakMap<object, FaultBook>();

/**
 * The fault book of a context's store: one per database, so the app's middleware, its routes and
 * its webhook outbox share one copy, also through the copies of the context a request makes (its
 * own write guard on the same database: `sw/idempotency.ts`).
 * @example const fault = await faultBookOf(ctx).takeHttp('POST', '/api/v10/channels/1/messages');
 */
export function faultBookOf(ctx: PlatformContext): FaultBook {
  let book = books.get(ctx.db);
  if (!book) books.set(ctx.db, (book = new FaultBook(ctx)));
  return book;
}

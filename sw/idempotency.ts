/**
 * Each request that changes something is applied once. Two ways a request comes again:
 *
 * - **The browser dispatches it again.** When the browser stops a service worker that has not
 *   answered a fetch yet, it starts a new one and dispatches the same request to it: same client,
 *   method, URL and body, nothing that tells the two apart. If the first worker had committed the
 *   write, applying it again would store it twice. So the first write of every changing request
 *   records, in its own transaction, a fingerprint of it (client id, method, URL, body) and the
 *   worker start that applied it; a request with the same fingerprint arriving at another start
 *   while the first start is gone (its Web Lock released) and within a few seconds is that same
 *   request: it gets the first answer, or 409 when the first worker stopped before its answer was
 *   kept, and nothing is applied twice.
 * - **The client retries it** with the same `Idempotency-Key` header (the IETF draft's): within a
 *   day it gets the first answer again; the key on a different request is 422.
 *
 * A client that sends plain `fetch` calls without a key gets the first guarantee only; two
 * identical requests it means to send (same body, same page) within the window around a worker
 * stop count as one, so a body that differs (a message `nonce`) keeps them apart.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../src/platform/core/errors';
import type { PlatformContext } from '../src/platform/core/context';
import { keyRange } from '../src/store/port';
import type { RequestRecord } from '../src/store/records/requests';
import type { PlatformStoreName, WriteTx } from '../src/store/schema';
import { type WriteGuard, WriteAgain } from '../src/store/write';
import { type AppEnv, errorResponse } from './http';

/** How long after a write a re-dispatch of it is recognized (real time): the browser re-dispatches at once. */
export const REDISPATCH_WINDOW_MS = 10_000;
/** How long an `Idempotency-Key` is remembered (real time). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** Answers larger than this are not kept: a repeat of such a request gets 409. */
const KEPT_ANSWER_MAX_BYTES = 64 * 1024;
/** Records forgotten per write at most, so pruning never makes one write slow. */
const PRUNE_BATCH = 16;
/**
 * How often (real time) a write forgets expired records: the first write after a start, then the
 * first one (a request's, or the kept answers' own) once this much time has passed, instead of a
 * read in every request's write.
 */
export const PRUNE_INTERVAL_MS = 1000;
/** How long a kept answer waits for a request's write to be stored with, in ms. */
export const KEPT_ANSWER_DELAY_MS = 25;

/** Which start of the service worker this is, and which others are still running. */
export interface WorkerStarts {
  /** This start's id. */
  readonly current: string;
  /** Whether the start `id` may still be running (its answers may still reach the browser). */
  isRunning(id: string): boolean;
}

const CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request that came again, answered from what its first time kept. */
class Replay extends Error {
  constructor(readonly record: RequestRecord) {
    super('The request was applied before.');
  }
}

async function sha256Hex(parts: (string | ArrayBuffer)[]): Promise<string> {
  const encoder = new TextEncoder();
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(`${part}\n`) : new Uint8Array(part)));
  const joined = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The answers kept for repeats, waiting to be stored: each goes with the next write of a request
 * (its transaction writes `request_records` anyway), or on its own a moment later, so that a
 * busy worker does not pay one more transaction per request. Until it is stored, a repeat of its
 * request gets 409, as before any answer was kept.
 */
export class KeptAnswers {
  readonly #pending = new Map<string, RequestRecord>();
  #flushing: ReturnType<typeof setTimeout> | null = null;
  /** When expired records were last looked for (real time); never, after a start. */
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: PlatformContext,
    /** How long an answer waits for a write to go with, in ms. */
    private readonly delayMs = KEPT_ANSWER_DELAY_MS,
  ) {}

  /** Keeps `record` (with its answer) to be stored. */
  add(record: RequestRecord): void {
    this.#pending.set(record.key, record);
    this.#flushing ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Takes every waiting answer, for a write that stores them. */
  take(): RequestRecord[] {
    const records = [...this.#pending.values()];
    this.#pending.clear();
    return records;
  }

  /** Puts back answers a failed write did not store (unless a newer one for the key waits). */
  restore(records: readonly RequestRecord[]): void {
    for (const record of records) if (!this.#pending.has(record.key)) this.#pending.set(record.key, record);
    if (this.#pending.size > 0) this.#flushing ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /**
   * Whether a write at `now` should forget expired records: the first after a start, then one
   * every {@link PRUNE_INTERVAL_MS}. Saying yes counts as pruning.
   */
  pruneDue(now: number): boolean {
    if (now - this.#prunedAt < PRUNE_INTERVAL_MS) return false;
    this.#prunedAt = now;
    return true;
  }

  /** Stores the waiting answers in a write of their own, and forgets expired records when due. */
  async flush(): Promise<void> {
    this.#flushing = null;
    const records = this.take();
    if (records.length === 0) return;
    const now = this.ctx.clock.elapsedNow();
    const prune = this.pruneDue(now);
    await this.ctx.db
      .write(['request_records'], async (tx) => {
        const store = tx.store('request_records');
        const stale = prune ? await expiredRecords(tx, now) : [];
        await Promise.all([...records.map((record) => store.put(record)), ...stale.map((key) => store.delete(key))]);
      })
      .catch(() => undefined);
  }
}

/** The keys of up to {@link PRUNE_BATCH} records older than an `Idempotency-Key` is remembered. */
function expiredRecords(tx: Pick<WriteTx, 'store'>, now: number): Promise<string[]> {
  return tx
    .store('request_records')
    .index('by_at')
    .getAllKeys(keyRange.upperBound(now - IDEMPOTENCY_KEY_TTL_MS), PRUNE_BATCH);
}

/** The guard of one request: its first write records it, after checking it is not a repeat. */
class RequestGuard implements WriteGuard {
  readonly stores: readonly PlatformStoreName[] = ['request_records'];
  record: RequestRecord | null = null;
  /** Earlier requests' answers this request's write stored. */
  carried: RequestRecord[] = [];
  /** Set once a record of the key was found stored: the write looks at it before it records. */
  private lookFirst = false;

  constructor(
    private readonly key: string,
    private readonly hash: string,
    private readonly explicit: boolean,
    private readonly starts: WorkerStarts,
    private readonly now: number,
    private readonly answers: KeptAnswers,
  ) {}

  async check(tx: WriteTx): Promise<void> {
    // A later write of the same request: recorded by the first.
    if (this.record) return tx.commit();
    const records = tx.store('request_records');
    this.carried = this.answers.take();
    // An answer still waiting to be stored is newer than what the store holds for the key.
    const waiting = this.carried.find((kept) => kept.key === this.key);
    if (waiting && this.isRepeatOf(waiting)) throw new Replay(waiting);
    const record: RequestRecord = { key: this.key, hash: this.hash, instance: this.starts.current, at: this.now };
    const prune = this.answers.pruneDue(this.now);
    if (!waiting && !this.lookFirst && !prune) return this.claim(tx, record);
    // Only the small reads go first, ahead of the route's: the earlier answers this write
    // carries (their bodies) are stored in the second round, behind the route's reads.
    const [stored, stale] = await Promise.all([
      waiting ? undefined : records.get(this.key),
      prune ? expiredRecords(tx, this.now) : [],
    ]);
    if (stored && this.isRepeatOf(stored)) throw new Replay(stored);
    this.record = record;
    // The request's own record after the answers it carries: for the same key, it is the newer.
    const recorded = Promise.all([
      ...this.carried.map((kept) => records.put(kept)),
      records.put(record),
      ...stale.map((key) => records.delete(key)),
    ]);
    tx.commit();
    await recorded;
  }

  /**
   * Records the request with requests whose results the write does not wait for: `add` fails
   * when a record of the key is stored (the request may have come before), and then the write
   * runs again and looks that record up first. A request seen for the first time, nearly every
   * one, so adds no read to its write and no second round of requests.
   */
  private async claim(tx: WriteTx, record: RequestRecord): Promise<void> {
    const records = tx.store('request_records');
    const recorded = Promise.all([...this.carried.map((kept) => records.put(kept)), records.add(record)]);
    this.record = record;
    tx.commit();
    try {
      await recorded;
    } catch (error) {
      this.record = null;
      // Nothing of this run is stored: the answers it carried wait for the next write again.
      this.answers.restore(this.carried);
      this.carried = [];
      if (!(error instanceof Error && error.name === 'ConstraintError')) throw error;
      this.lookFirst = true;
      throw new WriteAgain();
    }
  }

  private isRepeatOf(earlier: RequestRecord): boolean {
    if (this.explicit) {
      if (earlier.hash !== this.hash) throw ApiError.of('IDEMPOTENCY_KEY_REUSED');
      return this.now - earlier.at < IDEMPOTENCY_KEY_TTL_MS;
    }
    return (
      earlier.instance !== this.starts.current &&
      !this.starts.isRunning(earlier.instance) &&
      this.now - earlier.at < REDISPATCH_WINDOW_MS
    );
  }
}

/**
 * The answer to a request that came again (what an error handler returns for it): its first
 * answer, or 409 when that was not kept; undefined for any other error.
 */
export function repeatAnswer(error: unknown): Response | undefined {
  if (!(error instanceof Replay)) return undefined;
  if (!error.record.response) return errorResponse(ApiError.of('REQUEST_ALREADY_APPLIED'));
  const { status, headers, body } = error.record.response;
  return new Response(status === 204 ? null : body, { status, headers });
}

/** Statuses whose answer has no body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The answer as kept for a repeat, or undefined when it is too large to keep. The answer's bytes
 * are read once and the response sent is rebuilt from them: `Response.clone()` tees the body
 * stream, which cost a lobby POST about a sixth of its worker's time.
 */
async function keptAnswer(c: Context<AppEnv>): Promise<RequestRecord['response']> {
  const response = c.res;
  const bytes = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
  c.res = new Response(bytes, response);
  const body = bytes === null ? '' : new TextDecoder().decode(bytes);
  if (body.length > KEPT_ANSWER_MAX_BYTES) return undefined;
  const headers = [...response.headers].filter(([name]) => name === 'content-type' || name === 'retry-after');
  return { status: response.status, headers, body };
}

/**
 * The middleware that applies each changing request once (see the file's comment); the app's
 * error handler answers a repeat with {@link repeatAnswer}. The request's client is the
 * FetchEvent's (`c.env.clientId`), absent outside a service worker: only `Idempotency-Key` then
 * applies.
 * @example app.use('*', applyOnce(starts));
 */
export function applyOnce(starts: WorkerStarts): MiddlewareHandler<AppEnv> {
  let answers: KeptAnswers | undefined;
  return async (c, next) => {
    const explicitKey = c.req.header('Idempotency-Key');
    const clientId = c.env?.clientId ?? '';
    if (!CHANGING_METHODS.has(c.req.method) || (!explicitKey && !clientId)) return next();
    const ctx: PlatformContext = c.get('ctx');
    answers ??= new KeptAnswers(ctx);
    // Read once, through the request's body cache: the route reads it from there in whatever
    // form it takes (JSON, text, multipart), without reading the stream a second time.
    const body = await c.req.arrayBuffer();
    const hash = await sha256Hex([clientId, c.req.method, c.req.url, body]);
    const guard = new RequestGuard(
      explicitKey ? `key:${explicitKey}` : `auto:${hash}`,
      hash,
      explicitKey !== undefined,
      starts,
      ctx.clock.elapsedNow(),
      answers,
    );
    c.set('ctx', { ...ctx, guard });
    await next();
    const record = guard.record;
    // A write that failed stored none of the earlier answers it carried.
    if (c.error) answers.restore(guard.carried);
    if (!record || c.error) return;
    // Kept after the answer is ready, without holding it back: a repeat before it is stored gets 409.
    const response = await keptAnswer(c);
    if (response) answers.add({ ...record, response });
  };
}

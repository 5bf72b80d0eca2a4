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
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../src/platform/core/errors';
import type { PlatformContext } from '../src/platform/core/context';
import { keyRange } from '../src/store/port';
import type { RequestRecord } from '../src/store/records/requests';
import type { PlatformStoreName, WriteTx } from '../src/store/schema';
import type { WriteGuard } from '../src/store/write';
import { type AppEnv, errorResponse } from './http';

/** How long after a write a re-dispatch of it is recognized (real time): the browser re-dispatches at once. */
export const REDISPATCH_WINDOW_MS = 10_000;
/** How long an `Idempotency-Key` is remembered (real time). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** Answers larger than this are not kept: a repeat of such a request gets 409. */
const KEPT_ANSWER_MAX_BYTES = 64 * 1024;
/** Records forgotten per write at most, so pruning never makes one write slow. */
const PRUNE_BATCH = 16;

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

/** The guard of one request: its first write records it, after checking it is not a repeat. */
class RequestGuard implements WriteGuard {
  readonly stores: readonly PlatformStoreName[] = ['request_records'];
  record: RequestRecord | null = null;

  constructor(
    private readonly key: string,
    private readonly hash: string,
    private readonly explicit: boolean,
    private readonly starts: WorkerStarts,
    private readonly now: number,
  ) {}

  async check(tx: WriteTx): Promise<void> {
    if (this.record) return;
    const records = tx.store('request_records');
    const earlier = await records.get(this.key);
    if (earlier && this.isRepeatOf(earlier)) throw new Replay(earlier);
    this.record = { key: this.key, hash: this.hash, instance: this.starts.current, at: this.now };
    await records.put(this.record);
    const stale = await records
      .index('by_at')
      .getAllKeys(keyRange.upperBound(this.now - IDEMPOTENCY_KEY_TTL_MS), PRUNE_BATCH);
    await Promise.all(stale.map((key) => records.delete(key)));
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

/** The answer as kept for a repeat, or undefined when it is too large to keep. */
async function keptAnswer(response: Response): Promise<RequestRecord['response']> {
  const body = await response.clone().text();
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
  return async (c, next) => {
    const explicitKey = c.req.header('Idempotency-Key');
    const clientId = c.env?.clientId ?? '';
    if (!CHANGING_METHODS.has(c.req.method) || (!explicitKey && !clientId)) return next();
    const ctx: PlatformContext = c.get('ctx');
    // A clone: the route reads the body itself, in whatever form it takes (JSON, multipart).
    const body = await c.req.raw.clone().arrayBuffer();
    const hash = await sha256Hex([clientId, c.req.method, c.req.url, body]);
    const guard = new RequestGuard(
      explicitKey ? `key:${explicitKey}` : `auto:${hash}`,
      hash,
      explicitKey !== undefined,
      starts,
      ctx.clock.elapsedNow(),
    );
    c.set('ctx', { ...ctx, guard });
    await next();
    const record = guard.record;
    if (!record || c.error) return;
    // Kept after the answer is ready, without holding it back: a repeat before this commits gets 409.
    const response = await keptAnswer(c.res);
    if (response) void ctx.db.put('request_records', { ...record, response }).catch(() => undefined);
  };
}

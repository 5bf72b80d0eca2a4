/**
 * The accounting of HTTP rate limits: fixed windows by the platform clock, one per bucket key
 * (route bucket + major parameter + caller, or the caller's global bucket). A window opens at the
 * first request after the last one ended and lasts its full length, as the platform's
 * `X-RateLimit-Reset` tells. The counts live in memory: a restarted worker (the browser stopped the
 * service worker, a server's object was evicted) starts every window afresh, which at worst lets
 * one more burst through; the setting that turns limits on is in the store.
 */

/** Where a bucket stands after a request was counted, or why it was refused. */
export interface BucketState {
  /** The bucket's size. */
  limit: number;
  /** Requests left in this window (0 when refused). */
  remaining: number;
  /** When the window ends, epoch ms by the platform clock. */
  resetAt: number;
  /** Milliseconds until then. */
  resetAfterMs: number;
  /** False when the request is over the limit. */
  allowed: boolean;
}

interface Window {
  start: number;
  end: number;
  count: number;
}

/** Windows kept before the ended ones are swept out. */
const SWEEP_AT = 10_000;

/** The windows of one context's sandbox. */
export class RateLimiter {
  readonly #windows = new Map<string, Window>();

  /**
   * Counts a request against `key`'s bucket of `limit` per `windowMs` at `now`; a request over
   * the limit is refused and not counted.
   * @example limiter.take('bot:1|POST /api/channels/:channel_id/messages|42', 5, 5000, clock.now())
   */
  take(key: string, limit: number, windowMs: number, now: number): BucketState {
    const window = this.#open(key, windowMs, now);
    const allowed = window.count < limit;
    if (allowed) window.count += 1;
    return {
      limit,
      remaining: limit - window.count,
      resetAt: window.end,
      resetAfterMs: window.end - now,
      allowed,
    };
  }

  /**
   * Counts one event against `key`'s window of `windowMs` at `now` whatever the count (the
   * invalid-request limit counts answers, which happened); answers the window's count and end.
   * @example limiter.count('invalid', 600_000, clock.now()) // { count: 1, resetAt: … }
   */
  count(key: string, windowMs: number, now: number): { count: number; resetAt: number } {
    const window = this.#open(key, windowMs, now);
    window.count += 1;
    return { count: window.count, resetAt: window.end };
  }

  /**
   * When `key`'s window at `now` has counted `limit` or more, the epoch ms it ends; else null.
   * Counts nothing.
   */
  exhaustedUntil(key: string, limit: number, now: number): number | null {
    const window = this.#windows.get(key);
    if (!window || now >= window.end || now < window.start) return null;
    return window.count >= limit ? window.end : null;
  }

  /** Forgets every window (a reset sandbox starts with full buckets). */
  clear(): void {
    this.#windows.clear();
  }

  /** `key`'s window at `now`: the open one, or a new one from `now`. */
  #open(key: string, windowMs: number, now: number): Window {
    let window = this.#windows.get(key);
    // A clock moved back before the window opened starts another, as one moved past its end does.
    if (!window || now >= window.end || now < window.start) {
      if (this.#windows.size >= SWEEP_AT) this.#sweep(now);
      window = { start: now, end: now + windowMs, count: 0 };
      this.#windows.set(key, window);
    }
    return window;
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (now >= window.end || now < window.start) this.#windows.delete(key);
  }
}

const limiters = new WeakMap<object, RateLimiter>();

/**
 * The windows of a context's sandbox (one per database: the app's middleware and its reset share them).
 * @example rateLimiterOf(ctx).take(key, 5, 5000, ctx.clock.now())
 */
export function rateLimiterOf(ctx: { db: object }): RateLimiter {
  // One per database: a request's copy of the context (its write guard) shares it.
  let limiter = limiters.get(ctx.db);
  if (!limiter) limiters.set(ctx.db, (limiter = new RateLimiter()));
  return limiter;
}

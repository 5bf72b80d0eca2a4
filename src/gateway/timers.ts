/**
 * The gateway's connection timers (heartbeat deadlines, the payload rate limit window). They
 * measure the connection, not the platform, so they run on real monotonic time rather than the
 * sandbox clock; unit tests pass manual ones.
 */

/** Timers of the connection layer. */
export interface GatewayTimers {
  /** Monotonic milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real timers. */
export const REAL_TIMERS: GatewayTimers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The gateway's connection timers (heartbeat deadlines, the payload rate limit window). They
 * measure the connection, not the platform, so they run on real monotonic time rather than the
 * sandbox clock; unit tests pass manual ones.
 *
 * The gateway's heartbeat deadlines (and its presence sweep after a start) are armed through
 * `Deadlines`, which the host may provide: the browser's shared worker keeps a timer each; a
 * server's Durable Object keeps them with its sockets and wakes on one alarm, so that no timer
 * keeps an idle sandbox's object in memory (a pending timer forbids hibernation). The voice
 * gateway keeps its timers: its sessions live in memory, so a connected call keeps its object.
 */

/** Deadlines by key: each one fires once, unless armed again or cleared first. */
export interface Deadlines {
  /** (Re)arms `key`'s deadline `ms` from now; `expire` runs when it passes. */
  arm(key: object, ms: number, expire: () => void): void;
  clear(key: object): void;
}

/** Timers of the connection layer. */
export interface GatewayTimers {
  /** Monotonic milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Where the host keeps deadlines that must not hold it running (default: a timer each). */
  readonly deadlines?: Deadlines;
}

/** Real timers. */
export const REAL_TIMERS: GatewayTimers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** `timers`' own deadlines, or deadlines kept as one timer each. */
export function deadlinesOf(timers: GatewayTimers): Deadlines {
  if (timers.deadlines) return timers.deadlines;
  const handles = new Map<object, unknown>();
  return {
    arm(key, ms, expire) {
      timers.clearTimeout(handles.get(key));
      handles.set(
        key,
        timers.setTimeout(() => {
          handles.delete(key);
          expire();
        }, ms),
      );
    },
    clear(key) {
      timers.clearTimeout(handles.get(key));
      handles.delete(key);
    },
  };
}

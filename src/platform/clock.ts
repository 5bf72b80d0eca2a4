/**
 * The platform clock: the only place that reads the time. The sandbox can freeze it at any
 * instant (`PUT /sandbox/clock`) so that every dated rule of the spec can be exercised; its
 * state is persisted in the store and shared between the workers.
 */

/** What is persisted: `frozenAt` is the frozen instant in epoch ms, or null for real time. */
export interface ClockState {
  frozenAt: number | null;
}

/** The clock as real time. */
export const REAL_TIME: ClockState = Object.freeze({ frozenAt: null });

/**
 * A clock that reads real time unless frozen.
 * @example
 * const clock = new Clock();
 * clock.set({ frozenAt: Date.parse('2026-11-16T00:00:00Z') });
 * clock.now(); // 1794787200000
 */
export class Clock {
  #state: ClockState;

  constructor(
    state: ClockState = REAL_TIME,
    private readonly realNow: () => number = () => Date.now(),
  ) {
    this.#state = { ...state };
  }

  /** The current instant in epoch milliseconds. */
  now(): number {
    return this.#state.frozenAt ?? this.realNow();
  }

  /** The instant this clock would read under `state` (before it is set to it). */
  readingUnder(state: ClockState): number {
    return state.frozenAt ?? this.realNow();
  }

  /** The current instant as an ISO-8601 string. */
  isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  /** True while the sandbox holds the clock still. */
  get frozen(): boolean {
    return this.#state.frozenAt !== null;
  }

  /** The persisted state. */
  get state(): ClockState {
    return { ...this.#state };
  }

  /** Replaces the state (after a sandbox change, or another worker's broadcast). */
  set(state: ClockState): void {
    this.#state = { ...state };
  }
}

/**
 * The platform clock: the only place that reads the time. The sandbox can freeze it at any
 * instant (`PUT /sandbox/clock`) so that every dated rule of the spec can be exercised; its
 * state is persisted in the store and shared between the workers.
 */

import type { ClockState } from '../../store/records/clock';

export type { ClockState };

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

  /**
   * Real time, whatever the sandbox set: for what measures how long something took in this
   * browser (a re-dispatch window), never for the spec's dated rules.
   */
  elapsedNow(): number {
    return this.realNow();
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

/** `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH[:MM])`: an ISO-8601 date-time with its offset. */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * The instant an ISO-8601 date-time names, in epoch ms, or null unless it names a real one:
 * `Date.parse` rolls `2026-02-30` over to March 2 and `T24:00` to the next day; here a field out
 * of its calendar range is refused. Fractions below a millisecond are dropped.
 * @example parseIsoInstant('2026-02-23T12:00:00+01:00') // 1771844400000
 */
export function parseIsoInstant(text: string): number | null {
  const match = ISO_INSTANT.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const ms = match[7] ? Number(match[7].slice(0, 3).padEnd(3, '0')) : 0;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as they are.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  const roundTrips =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  const offsetHours = Number(match[9] ?? 0);
  const offsetMinutes = Number(match[10] ?? 0);
  if (!roundTrips || offsetHours > 23 || offsetMinutes > 59) return null;
  const sign = match[8] === '-' ? -1 : 1;
  return date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

/** The sandbox clock as persisted (`platform/core/clock.ts` reads it). */

/** `frozenAt` is the frozen instant in epoch ms, or null for real time. */
export interface ClockState {
  frozenAt: number | null;
}

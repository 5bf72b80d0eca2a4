/**
 * Setting the sandbox clock (CONTRACT §3 `PUT` / `DELETE /sandbox/clock`): the new state is
 * persisted with a snowflake reservation that covers the instant it reads (so every context that
 * hears of a clock set forward already finds its ids reserved), then this context follows it and
 * the others are told.
 */
import { saveClockState } from '../../store/meta';
import { REAL_TIME, type ClockState } from './clock';
import type { PlatformContext } from './context';
import { SNOWFLAKE_LEASE_MS } from './snowflake';

/**
 * Freezes the platform clock at `frozenAt` (epoch ms), or returns it to real time with null.
 * @example await setSandboxClock(ctx, Date.parse('2026-03-01T00:00:00Z'));
 */
export async function setSandboxClock(ctx: PlatformContext, frozenAt: number | null): Promise<void> {
  const state: ClockState = frozenAt === null ? REAL_TIME : { frozenAt };
  await saveClockState(ctx.db, state, ctx.clock.readingUnder(state) + SNOWFLAKE_LEASE_MS);
  ctx.clock.set(state);
  ctx.announce({ type: 'clock', frozenAt });
}

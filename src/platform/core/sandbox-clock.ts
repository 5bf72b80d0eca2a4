/**
 * Setting the sandbox clock (CONTRACT §3 `PUT` / `DELETE /sandbox/clock`): the new state is
 * persisted with a snowflake reservation that covers the instant it reads (so every context that
 * hears of a clock set forward already finds its ids reserved), then this context follows it and
 * the others are told.
 */
import { saveClockState } from '../../store/meta';
import { type ClockState, parseIsoInstant, REAL_TIME } from './clock';
import type { PlatformContext } from './context';
import { SNOWFLAKE_LEASE_MS } from './snowflake';
import * as v from 'valibot';
import { jsonObject } from './json-object';
import { SANDBOX_CLOCK_MAX_MS, SANDBOX_CLOCK_MIN_MS } from './limits';

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

const CLOCK_RANGE = `Must be from ${new Date(SANDBOX_CLOCK_MIN_MS).toISOString()} to ${new Date(SANDBOX_CLOCK_MAX_MS).toISOString()}.`;

/** An instant that exists (no February 30th) within the range the clock accepts, as epoch ms. */
export const SandboxClockSchema = jsonObject({
  now: v.pipe(
    v.string('Must be an ISO-8601 timestamp.'),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const ms = parseIsoInstant(dataset.value);
      if (ms === null)
        addIssue({ message: 'Must be a real ISO-8601 date and time with its offset, e.g. 2026-02-23T12:00:00Z.' });
      else if (ms < SANDBOX_CLOCK_MIN_MS || ms > SANDBOX_CLOCK_MAX_MS) addIssue({ message: CLOCK_RANGE });
      else return ms;
      return NEVER;
    }),
  ),
});

/**
 * The sandbox's reset (CONTRACT §3 `POST /sandbox/reset`): every store emptied, the clock back
 * to real time. The fixtures it clears live with their areas: users and applications in
 * `accounts/fixtures.ts`, guilds with their roles, channels and members in `guilds/fixtures.ts`.
 */
import { reserveSnowflakesThrough } from '../../store/meta';
import { ALL_STORES } from '../../store/platform-catalogue';
import { REAL_TIME } from './clock';
import type { PlatformContext } from './context';
import { SNOWFLAKE_LEASE_MS } from './snowflake';

/** Empties every store, forgets injected faults and the rate-limit setting, and returns the clock to real time. */
export async function resetPlatform(ctx: PlatformContext): Promise<void> {
  await ctx.db.write(ALL_STORES, async (tx) => {
    await Promise.all(ALL_STORES.filter((s) => s !== 'meta').map((s) => tx.store(s).clear()));
    // The snowflake allocation survives a reset, raised to cover real time: ids stay unique and
    // increasing across it even when the clock stood in the future.
    await reserveSnowflakesThrough(tx, ctx.clock.readingUnder(REAL_TIME) + SNOWFLAKE_LEASE_MS);
    await tx.store('meta').delete('clock');
    // Faults on demand and the rate-limit setting go with the rest: a reset sandbox behaves.
    await tx.store('meta').delete('faults');
    await tx.store('meta').delete('rate_limits');
  });
  ctx.clock.set(REAL_TIME);
  ctx.announce({ type: 'reset' });
}

// @ts-check
/**
 * What a run does. `npm run bench` runs everything at full size; `-- --quick` runs every phase
 * small (for working on the bench itself); `-- --only=read,write` runs some phases.
 */

/** Every phase, in the order they run. */
export const PHASES = /** @type {const} */ ([
  'read',
  'write',
  'fanout',
  'members',
  'cold',
  'voice',
  'size',
  'server',
  'ratelimit',
  'server-load',
]);

const FULL = {
  lobbySizes: [1_000, 10_000, 100_000],
  guildSizes: [1_000, 10_000, 100_000],
  read: { rounds: 200, warmup: 10, batch: 10 },
  write: { rounds: 40, warmup: 3, batch: 20 },
  fanout: { rounds: 300, warmup: 20, tabs: 5, socketsPerTab: 10 },
  members: { rounds: 7, warmup: 1 },
  cold: { rounds: 15, warmup: 1 },
  cold_read: { rounds: 40, warmup: 2 },
  memory: { lobbies: 100 },
  voice: { rounds: 6, seconds: 8 },
  server_load: { sandboxes: 50, users: 5, bots: 2, paced_s: 45, pace_ms: 30_000, saturated_s: 20, drain_s: 15 },
};

const QUICK = {
  lobbySizes: [1_000, 10_000],
  guildSizes: [1_000, 5_000],
  read: { rounds: 20, warmup: 2, batch: 5 },
  write: { rounds: 5, warmup: 1, batch: 10 },
  fanout: { rounds: 30, warmup: 3, tabs: 5, socketsPerTab: 10 },
  members: { rounds: 2, warmup: 1 },
  cold: { rounds: 3, warmup: 1 },
  cold_read: { rounds: 6, warmup: 1 },
  memory: { lobbies: 100 },
  voice: { rounds: 2, seconds: 3 },
  server_load: { sandboxes: 10, users: 5, bots: 2, paced_s: 8, pace_ms: 30_000, saturated_s: 4, drain_s: 10 },
};

/** @typedef {typeof FULL & { quick: boolean, phases: Set<string>, write_results: boolean }} BenchOptions */

/**
 * @param {string[]} argv
 * @returns {BenchOptions}
 */
export function parseOptions(argv) {
  const quick = argv.includes('--quick');
  const only = argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .filter(Boolean);
  const unknown = (only ?? []).filter((p) => !(/** @type {readonly string[]} */ (PHASES).includes(p)));
  if (unknown.length > 0) throw new Error(`unknown phase ${unknown.join(', ')}: the phases are ${PHASES.join(', ')}`);
  return {
    ...(quick ? QUICK : FULL),
    quick,
    phases: new Set(only ?? PHASES),
    // A partial or quick run prints its table but keeps bench/results/ as the last full run left it.
    write_results: !quick && !only,
  };
}

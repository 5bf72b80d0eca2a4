/**
 * The reliability figures of a test run: each test that measures some (exactly once under
 * worker stops, fuzzed request bodies) records its section here. The sections are merged into
 * `test-results/reliability.json` and each is printed as one plain `reliability:` line in the
 * test log, so every run re-measures them where CI and a reader see them.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';

/** Where the figures are kept. */
export const RELIABILITY_FILE = 'test-results/reliability.json';

/** One section's figures: counts, or counts by a key (answers by status). */
export type ReliabilityFigures = Record<string, number | string | Record<string, number>>;

/** The figures as one plain line: `name: key value, key value, by_status 200 12 400 3`. */
export function reliabilityLine(section: string, figures: ReliabilityFigures): string {
  const parts = Object.entries(figures).map(([key, value]) =>
    typeof value === 'object'
      ? `${key} ${Object.entries(value)
          .map(([k, n]) => `${k}:${n}`)
          .join(' ')}`
      : `${key} ${value}`,
  );
  return `reliability: ${section}: ${parts.join(', ')}`;
}

/**
 * Records a section: merged into {@link RELIABILITY_FILE} (other sections are kept) and printed.
 * @example await recordReliability('exactly_once', { stops: 43, writes: 2000, lost: 0, duplicated: 0 });
 */
export async function recordReliability(section: string, figures: ReliabilityFigures): Promise<void> {
  await mkdir('test-results', { recursive: true });
  let all: Record<string, ReliabilityFigures> = {};
  try {
    all = JSON.parse(await readFile(RELIABILITY_FILE, 'utf8'));
  } catch {
    // No figures yet (or a file from an interrupted run): this section starts them.
  }
  all[section] = figures;
  // Written whole and renamed into place, so a reader never sees half a file.
  const partial = `${RELIABILITY_FILE}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(all, null, 2)}\n`);
  await rename(partial, RELIABILITY_FILE);
  console.log(reliabilityLine(section, figures));
}

/**
 * axe-core in a page driven by playwright-core: its source injected into the page and every
 * frame in it (so an embedded activity is checked too), run over the whole document against
 * WCAG 2.1 A and AA and axe's best practices, and what it found put in words a failing test can
 * print (rule, impact, the elements' selectors).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';

/** The rule sets checked: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const;

/** The impacts a page may not have. */
export const BLOCKING_IMPACTS = ['serious', 'critical'] as const;

/** One rule axe found broken, and where. */
export interface AxeViolation {
  rule: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  /** Each element's selector (through iframes and shadow roots, joined with ` >> `), with axe's reason. */
  nodes: { target: string; summary: string }[];
}

/** axe's minified build, read once. */
const AXE_SOURCE = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'),
  'utf8',
);

/**
 * Runs axe over `page` (its frames included) and returns every violation, whatever its impact.
 * @example const found = await runAxe(page); expect(blocking(found)).toEqual([]);
 */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  for (const frame of page.frames()) {
    // A frame that navigates away meanwhile is checked on the next run; axe skips it for this one.
    await frame
      .evaluate((source) => {
        if (!(globalThis as { axe?: unknown }).axe) new Function(source)();
      }, AXE_SOURCE)
      .catch(() => undefined);
  }
  return page.evaluate(
    async (tags) => {
      const axe = (globalThis as unknown as { axe: typeof import('axe-core') }).axe;
      const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      const selector = (target: unknown): string =>
        Array.isArray(target)
          ? target.map((part) => (Array.isArray(part) ? part.join(' >> ') : String(part))).join(' >> ')
          : String(target);
      return result.violations.map((v) => ({
        rule: v.id,
        impact: v.impact ?? null,
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: selector(n.target),
          summary: (n.failureSummary ?? '').replace(/\s+/g, ' '),
        })),
      }));
    },
    [...AXE_TAGS],
  );
}

/** The violations of a serious or critical impact. */
export function blocking(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => (BLOCKING_IMPACTS as readonly string[]).includes(v.impact ?? ''));
}

/**
 * The violations in words, one line per element: `view: rule (impact) target — reason`.
 * @example describeViolations('lobby 1280x800 dark', found)
 */
export function describeViolations(where: string, violations: AxeViolation[]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${where}: ${v.rule} (${v.impact}) ${n.target} — ${n.summary || v.help}`),
  );
}

/** Violations counted by impact and by rule (nodes summed), for a report. */
export function countViolations(violations: AxeViolation[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of violations) {
    counts[`impact:${v.impact}`] = (counts[`impact:${v.impact}`] ?? 0) + 1;
    counts[`${v.rule} (${v.impact}) nodes`] = (counts[`${v.rule} (${v.impact}) nodes`] ?? 0) + v.nodes.length;
  }
  return counts;
}

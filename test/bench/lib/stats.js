// @ts-check
/** Summaries of raw samples: what the report shows of them. */

/**
 * The `q` quantile (0..1) of sorted samples, linearly interpolated.
 * @param {number[]} sorted @param {number} q
 */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

/**
 * @typedef {{ n: number, median: number, p95: number, mean: number, min: number, max: number }} Summary
 */

/**
 * @param {number[]} samples
 * @returns {Summary}
 */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    mean: sorted.reduce((sum, x) => sum + x, 0) / (sorted.length || 1),
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

/** @param {number} value @param {number} baseline */
export function ratio(value, baseline) {
  return baseline > 0 ? value / baseline : NaN;
}

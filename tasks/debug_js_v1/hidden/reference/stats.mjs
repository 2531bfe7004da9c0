/**
 * Latency statistics for the service dashboard. Samples are response times in milliseconds.
 */

/** The samples in ascending order, as a new array: the caller's array is left as it is. */
function sortedCopy(samples) {
  return [...samples].sort((a, b) => a - b);
}

/** The middle sample, or the mean of the two middle ones for an even count. */
export function median(samples) {
  if (samples.length === 0) throw new RangeError('median of no samples');
  const sorted = sortedCopy(samples);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The p-th percentile (0 < p <= 100) by the nearest-rank method. */
export function percentile(samples, p) {
  if (samples.length === 0) throw new RangeError('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile out of range: ${p}`);
  const sorted = sortedCopy(samples);
  return sorted[Math.ceil((p * sorted.length) / 100) - 1];
}

/** Count, extremes, median and 95th percentile, for the dashboard's summary row. */
export function summarize(samples) {
  const sorted = sortedCopy(samples);
  return {
    count: sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    median: median(samples),
    p95: percentile(samples, 95),
  };
}

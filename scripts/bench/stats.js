// @ts-check

/** The median of the numbers given, ignoring nulls; null when there are none. @param {Array<number | null | undefined>} values */
export function median(values) {
  const sorted = values
    .filter(/** @returns {value is number} */ (value) => typeof value === "number" && Number.isFinite(value))
    .sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  // Even counts (BENCH_RUNS=2, 4…) average the two middle values.
  const upper = sorted[middle] ?? 0;
  const lower = sorted[middle - 1] ?? upper;
  return sorted.length % 2 === 1 ? upper : (lower + upper) / 2;
}

/** The nearest-rank percentile (p from 0 to 100) of the numbers given; 0 when there are none. @param {number[]} values @param {number} p */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

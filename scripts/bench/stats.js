// @ts-check

/**
 * The median of the numbers given, ignoring nulls; null when there are none.
 * @param {Array<number | null | undefined>} values
 */
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

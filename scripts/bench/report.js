// @ts-check
// The printed report: Markdown tables (readable in a terminal, pasteable into the README), each figure beside its target with PASS or FAIL.

/** @typedef {{ scope: string, metric: string, shown: string, target: string, pass: boolean }} Check A figure (shown: formatted) beside its target. */

/**
 * One part of the bench (index.js SECTIONS): it starts what it measures, measures, stops it. `name` is its name in BENCH_SKIP, BENCH_ONLY
 * and the JSON record; its result's `lines` are printed under its title (every figure, those with a target beside it with PASS or FAIL),
 * its `checks` go to the summary, its `record` to the JSON.
 * @typedef {{ name: string, title: string, run: (context: { config: import("./config.js").BenchConfig, logDir: string }) => Promise<SectionResult>} } Section
 * @typedef {{ lines: string[], checks: Check[], record: unknown }} SectionResult
 */

/** Pads columns so the Markdown also lines up as plain text. @param {string[]} header @param {Array<Array<string | number>>} rows */
export function table(header, rows) {
  const cells = rows.map((row) => row.map(String));
  const widths = header.map((cell, column) => Math.max(cell.length, ...cells.map((row) => (row[column] ?? "").length)));
  /** @param {string[]} row */
  const line = (row) => `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  return [line(header), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...cells.map(line)].join("\n");
}

/** Figures beside their targets, all under one scope: `at(metric, shown, target, pass)`. @param {string} scope @param {Check[]} into */
export const checksOf =
  (scope, into) =>
  (/** @type {string} */ metric, /** @type {string | number} */ shown, /** @type {string} */ target, /** @type {boolean} */ pass) =>
    void into.push({ scope, metric, shown: String(shown), target, pass });

/** @param {boolean} pass */
export const verdict = (pass) => (pass ? "PASS" : "FAIL");

/** Checks as a table: figure, target, PASS or FAIL. @param {Check[]} checks */
export function checksTable(checks) {
  return table(
    ["Check", "Figure", "Target", "Result"],
    checks.map((check) => [`${check.scope}: ${check.metric}`, check.shown, check.target, verdict(check.pass)]),
  );
}

/** @param {Check[]} checks */
export function summaryLine(checks) {
  const failed = checks.filter((check) => !check.pass);
  return `${checks.length - failed.length} of ${checks.length} targets pass, ${failed.length} fail.`;
}

// @ts-check
// The printed report: Markdown tables (readable in a terminal, pasteable into the README), each figure beside its target with PASS or FAIL;
// Lighthouse's table and what the offline guard blocked; the serving loads.
import { LIGHTHOUSE_ROWS, servingChecks } from "./targets.js";

/** @typedef {import("./lighthouse.js").RouteResult} RouteResult */
/** @typedef {import("./serving.js").ServingResult} ServingResult */
/** @typedef {import("./targets.js").Check} Check */

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

/** @param {boolean} pass */
const verdict = (pass) => (pass ? "PASS" : "FAIL");

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

/** @param {number} ratio Three decimals when small, so 0.004 does not print as 0.00. */
const formatRatio = (ratio) => ratio.toFixed(ratio < 0.1 ? 3 : 2);

/** @param {RouteResult[]} routes @param {number} runs */
export function lighthouseTable(routes, runs) {
  const rows = LIGHTHOUSE_ROWS.map((row) => [
    row.label,
    row.target ?? "",
    ...routes.map((route) => {
      const value = route.median[row.key];
      const judged = route.median[row.judgedBy ?? row.key];
      if (value === null || judged === null) return row.target ? "n/a FAIL" : "n/a";
      const pass = row.pass(judged, route.route);
      const shown = judged === value ? row.format(value) : `${row.format(value)} (${row.format(judged)}*)`;
      return pass === null ? shown : `${shown} ${verdict(pass)}`;
    }),
  ]);
  const failedRuns = routes.flatMap(({ route, runs }) =>
    runs.filter((run) => run.error).map((run) => `Run failed: ${route} ${run.run}: ${run.error}`),
  );
  const excused = routes.some(({ median: m }) => m.seoByDesign !== m.seo || m.bestPracticesByDesign !== m.bestPractices);
  const notes = [
    `Lighthouse, mobile with simulated throttling; medians of ${runs} runs. Bytes as transferred (compressed, headers included). Host CPU ` +
      "index: Lighthouse's BenchmarkIndex during the runs, lower when other work competes for the CPU (TBT and Performance then read worse).",
    ...failedRuns,
    ...(excused
      ? ["* Without the audits a 404 page fails by design: its status, its own robots noindex, the browser's 404 line for it."]
      : []),
  ];
  return `${table(["Metric", "Target", ...routes.map((route) => route.route)], rows)}\n\n${notes.join("\n")}`;
}

/** @param {ServingResult} serving */
export function servingTable(serving) {
  /** @param {string} name @param {import("./serving.js").LoadFigures} f @param {string} ratio */
  const load = (name, f, ratio) => [name, f.requestsPerSecond, ratio, `${f.p50Ms} ms`, `${f.p99Ms} ms`, f.unexpectedStatus + f.errors];
  const rows = [
    load("production, cached /", serving.cached, "1.00"),
    ...serving.floods.map((flood) => load(`flood: ${flood.name}`, flood.figures, formatRatio(flood.ratio))),
  ];
  return [table(["Load", "req/s", "× cached /", "p50", "p99", "Unexpected or failed"], rows), "", checksTable(servingChecks(serving))].join(
    "\n",
  );
}

/**
 * Non-loopback requests in Lighthouse's logs, and what the offline guard refused meanwhile (Chromium's own background traffic, or a page's
 * request for another host, e.g. an iframe).
 * @param {string[]} externalRequests @param {Record<string, number>} blocked Refusals by host.
 */
export function blockedNote(externalRequests, blocked) {
  const hosts = Object.entries(blocked).map(([host, count]) => `${host} ×${count}`);
  return [
    externalRequests.length > 0
      ? `Non-loopback requests in Lighthouse's logs (blocked): ${externalRequests.join(", ")}.`
      : "No request left loopback.",
    hosts.length > 0 ? `The offline guard refused ${hosts.join(", ")}.` : "",
  ].join(" ");
}

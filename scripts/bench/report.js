// @ts-check
// The printed report: Markdown tables (readable in a terminal, pasteable into the README),
// then what Lighthouse flags on each route.
import { LIGHTHOUSE_ROWS, formatKB, servingPass, servingTarget } from "./targets.js";

/** @typedef {import("./lighthouse.js").RouteResult} RouteResult */
/** @typedef {import("./serving.js").ServingResult} ServingResult */
/** @typedef {import("./targets.js").Check} Check */

/**
 * Pads columns so the Markdown also lines up as plain text.
 * @param {string[]} header
 * @param {string[][]} rows
 */
function table(header, rows) {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  /** @param {string[]} cells */
  const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  return [line(header), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

/** @param {boolean} pass */
const verdict = (pass) => (pass ? "PASS" : "FAIL");

/**
 * @param {RouteResult[]} routes
 * @param {number} runs
 */
export function lighthouseTable(routes, runs) {
  const rows = LIGHTHOUSE_ROWS.map((row) => [
    row.label,
    row.target ?? "",
    ...routes.map((route) => {
      const value = route.median[row.key];
      if (value === null) return row.target ? "n/a FAIL" : "n/a";
      const pass = row.pass(value, route.route);
      return pass === null ? row.format(value) : `${row.format(value)} ${verdict(pass)}`;
    }),
  ]);
  const failedRuns = routes.flatMap((route) => route.runs.filter((run) => run.error).map((run) => `${route.route} run ${run.run}: ${run.error}`));
  const notes = [
    `Lighthouse, mobile with simulated throttling; median of ${runs} run${runs === 1 ? "" : "s"} per figure. Bytes as transferred (compressed, headers included).`,
    ...failedRuns.map((line) => `Run failed: ${line}`),
  ];
  return `${table(["Metric", "Target", ...routes.map((route) => route.route)], rows)}\n\n${notes.join("\n")}`;
}

/** @param {ServingResult[]} serving */
export function servingTable(serving) {
  const rows = serving.map((result) => [
    result.path,
    `≥ ${servingTarget(result.path)}`,
    String(result.production.requestsPerSecond),
    String(result.bare.requestsPerSecond),
    result.ratio.toFixed(2),
    verdict(servingPass(result)),
    `${result.production.p99Ms} ms`,
    `${result.bare.p99Ms} ms`,
    `${result.captured.status} ${result.captured.contentEncoding ?? "identity"} ${formatKB(result.captured.bodyBytes)}`,
  ]);
  const notes = serving.flatMap((result) => {
    const problems = [];
    if (result.captured.status >= 300) problems.push(`${result.path}: production answered ${result.captured.status} when captured, so the comparison is not of a successful response.`);
    if (result.production.non2xx > 0 || result.production.errors > 0) {
      problems.push(`${result.path}: production gave ${result.production.non2xx} non-2xx responses (${JSON.stringify(result.production.statusCodes)}) and ${result.production.errors} errors.`);
    }
    return problems;
  });
  const header = ["Path", "Target ratio", "Production req/s", "Bare req/s", "Ratio", "Result", "Production p99", "Bare p99", "Response"];
  return [table(header, rows), ...(notes.length > 0 ? ["", ...notes] : [])].join("\n");
}

/** @param {RouteResult[]} routes */
export function flaggedReport(routes) {
  const sections = routes.map((route) => {
    const runs = route.runs.length;
    if (route.flagged.length === 0) return `### ${route.route}\nNothing flagged.`;
    const lines = route.flagged.map((audit) => {
      const scoreText = audit.scoreDisplayMode === "informative" ? "unscored" : audit.score === null ? audit.scoreDisplayMode : `score ${audit.score}`;
      const head = `- [${audit.categories.join(", ") || "—"}] ${audit.id} (${scoreText}, ${audit.flaggedInRuns}/${runs} runs): ${audit.title}${audit.displayValue ? ` — ${audit.displayValue}` : ""}`;
      const explanation = audit.explanation ? [`    ${audit.explanation.replace(/\s+/g, " ").slice(0, 300)}`] : [];
      const shown = audit.items.slice(0, 6).map((item) => `    · ${item}`);
      const more = audit.items.length > 6 ? [`    · … ${audit.items.length - 6} more (see the JSON)`] : [];
      return [head, ...explanation, ...shown, ...more].join("\n");
    });
    return `### ${route.route}\n${lines.join("\n")}`;
  });
  return sections.join("\n\n");
}

/** @param {Check[]} checks */
export function summaryLine(checks) {
  const failed = checks.filter((check) => !check.pass);
  return `${checks.length - failed.length} of ${checks.length} targets pass, ${failed.length} fail.`;
}

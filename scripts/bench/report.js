// @ts-check
// The printed report: Markdown tables (readable in a terminal, pasteable into the README),
// then what Lighthouse flags on each route.
import { LIGHTHOUSE_ROWS, servingChecks } from "./targets.js";

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

/** @param {number} ratio Three decimals when small, so 0.004 does not print as 0.00. */
const formatRatio = (ratio) => ratio.toFixed(ratio < 0.1 ? 3 : 2);

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
      const judged = route.median[row.judgedBy ?? row.key];
      if (value === null || judged === null) return row.target ? "n/a FAIL" : "n/a";
      const pass = row.pass(judged, route.route);
      const shown = judged === value ? row.format(value) : `${row.format(value)} (${row.format(judged)}*)`;
      return pass === null ? shown : `${shown} ${verdict(pass)}`;
    }),
  ]);
  const failedRuns = routes.flatMap((route) =>
    route.runs.filter((run) => run.error).map((run) => `${route.route} run ${run.run}: ${run.error}`),
  );
  const notes = [
    `Lighthouse, mobile with simulated throttling; median of ${runs} run${runs === 1 ? "" : "s"} per figure. Bytes as transferred (compressed, headers included).`,
    "Host CPU index is Lighthouse's BenchmarkIndex during the runs: when other work competes for the CPU it drops, and TBT and Performance read worse.",
    ...failedRuns.map((line) => `Run failed: ${line}`),
  ];
  if (
    routes.some(
      (route) => route.median.seoByDesign !== route.median.seo || route.median.bestPracticesByDesign !== route.median.bestPractices,
    )
  ) {
    notes.push(
      "* Judged without the audits a 404 page fails by design: the 404 status itself (http-status-code), its own robots noindex (is-crawlable), " +
        'and the browser\'s "Failed to load resource: 404" for the document (errors-in-console). Unknown paths must answer 404; any other finding still counts.',
    );
  }
  return `${table(["Metric", "Target", ...routes.map((route) => route.route)], rows)}\n\n${notes.join("\n")}`;
}

/** @param {ServingResult} serving */
export function servingTable(serving) {
  const load = (/** @type {string} */ name, /** @type {import("./serving.js").LoadFigures} */ figures, /** @type {string} */ ratio) => [
    name,
    String(figures.requestsPerSecond),
    ratio,
    `${figures.p50Ms} ms`,
    `${figures.p99Ms} ms`,
    String(figures.unexpectedStatus + figures.errors),
  ];
  const rows = [
    load("bare node:http replaying / (the client's ceiling)", serving.ceiling, ""),
    load("production, cached /", serving.cached, "1.00"),
    ...serving.floods.map((flood) => load(`flood: ${flood.name}`, flood.figures, formatRatio(flood.ratio))),
  ];
  const loads = table(["Load", "req/s", "× cached /", "p50", "p99", "Unexpected or failed"], rows);
  const checks = servingChecks(serving);
  const verdicts = table(
    ["Check", "Figure", "Target", "Result"],
    checks.map((check) => [`${check.scope}: ${check.metric}`, check.shown, check.target, verdict(check.pass)]),
  );
  const capped = serving.clientCapped
    ? `The cached / rate reached ${Math.round((100 * serving.cached.requestsPerSecond) / serving.ceiling.requestsPerSecond)}% of the bare server's with the same client: the client (autocannon) may be what capped it.`
    : `The same client drove a bare server ${(serving.ceiling.requestsPerSecond / Math.max(1, serving.cached.requestsPerSecond)).toFixed(1)}× faster than production's cached /, so the server, not the client (autocannon), is the limit measured.`;
  return [loads, "", capped, "", verdicts].join("\n");
}

/**
 * @param {RouteResult["flagged"][number]} audit
 * @param {string} runsText e.g. "3/3 runs"
 */
function flaggedLines(audit, runsText) {
  const scoreText =
    audit.scoreDisplayMode === "informative" ? "unscored" : audit.score === null ? audit.scoreDisplayMode : `score ${audit.score}`;
  const head = `- [${audit.categories.join(", ") || "—"}] ${audit.id} (${scoreText}, ${runsText}): ${audit.title}${audit.displayValue ? ` — ${audit.displayValue}` : ""}`;
  const explanation = audit.explanation ? [`    ${audit.explanation.replace(/\s+/g, " ").slice(0, 300)}`] : [];
  const shown = audit.items.slice(0, 6).map((item) => `    · ${item}`);
  const more = audit.items.length > 6 ? [`    · … ${audit.items.length - 6} more (see the JSON)`] : [];
  return [head, ...explanation, ...shown, ...more].join("\n");
}

/**
 * Audits flagged on every route are listed once (items from the first route), then each
 * route's own.
 * @param {RouteResult[]} routes
 */
export function flaggedReport(routes) {
  const [first, ...others] = routes;
  if (!first) return "";
  const everywhere = new Set(
    others.length === 0
      ? []
      : first.flagged.map((audit) => audit.id).filter((id) => others.every((route) => route.flagged.some((audit) => audit.id === id))),
  );
  const sections = [];
  if (everywhere.size > 0) {
    const lines = first.flagged
      .filter((audit) => everywhere.has(audit.id))
      .map((audit) => {
        const runs = routes.reduce((sum, route) => sum + (route.flagged.find((other) => other.id === audit.id)?.flaggedInRuns ?? 0), 0);
        const total = routes.reduce((sum, route) => sum + route.runs.length, 0);
        return flaggedLines(audit, `${runs}/${total} runs; items from ${first.route}`);
      });
    sections.push(`#### Every route\n${lines.join("\n")}`);
  }
  for (const route of routes) {
    const own = route.flagged.filter((audit) => !everywhere.has(audit.id));
    const lines = own.map((audit) => flaggedLines(audit, `${audit.flaggedInRuns}/${route.runs.length} runs`));
    sections.push(
      `#### ${route.route}\n${lines.length > 0 ? lines.join("\n") : everywhere.size > 0 ? "Nothing else." : "Nothing flagged."}`,
    );
  }
  return sections.join("\n\n");
}

/**
 * What the offline guard refused. Hosts refused on every route are Chromium's own background
 * traffic; the others came from a page (e.g. an iframe loading once Lighthouse scrolls it into view).
 * @param {RouteResult[]} routes
 * @param {string[]} externalRequests Non-loopback URLs in Lighthouse's network logs.
 */
export function blockedNotes(routes, externalRequests) {
  /** @param {Map<string, number>} hosts */
  const list = (hosts) => [...hosts].map(([host, count]) => `${host} ×${count}`).join(", ");
  const perRoute = routes.map((route) => {
    /** @type {Map<string, number>} */
    const hosts = new Map();
    for (const run of route.runs)
      for (const [host, count] of Object.entries(run.blockedHosts)) hosts.set(host, (hosts.get(host) ?? 0) + count);
    return { route: route.route, hosts };
  });
  const everywhere = new Set(
    routes.length > 1 ? [...(perRoute[0]?.hosts.keys() ?? [])].filter((host) => perRoute.every(({ hosts }) => hosts.has(host))) : [],
  );
  /** @type {Map<string, number>} */
  const background = new Map();
  for (const { hosts } of perRoute)
    for (const host of everywhere) background.set(host, (background.get(host) ?? 0) + (hosts.get(host) ?? 0));
  const notes = [
    externalRequests.length > 0
      ? `Lighthouse's network log has non-loopback requests (blocked): ${externalRequests.join(", ")}.`
      : "Lighthouse's network log has no request beyond the server under test.",
  ];
  if (background.size > 0) notes.push(`Blocked on every route (Chromium's own background traffic): ${list(background)}.`);
  for (const { route, hosts } of perRoute) {
    const own = new Map([...hosts].filter(([host]) => !everywhere.has(host)));
    if (own.size > 0) notes.push(`Blocked while measuring ${route}${routes.length > 1 ? " only" : ""}: ${list(own)}.`);
  }
  return notes;
}

/** @param {Check[]} checks */
export function summaryLine(checks) {
  const failed = checks.filter((check) => !check.pass);
  return `${checks.length - failed.length} of ${checks.length} targets pass, ${failed.length} fail.`;
}

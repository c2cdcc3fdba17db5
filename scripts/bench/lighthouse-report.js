// @ts-check
// Lighthouse's figures against issue 4's targets and issues 22 and 30's against the static anchor, each beside its target with PASS or
// FAIL; its table, and what the offline guard blocked. 1 kB = 1000 bytes.
import { NOT_FOUND_PATH } from "./config.js";
import { table, verdict } from "./report.js";

/** @typedef {import("./lighthouse.js").FigureKey} FigureKey @typedef {import("./lighthouse.js").RouteResult} RouteResult */
/** @typedef {import("./report.js").Check} Check */

const formatKB = (/** @type {number} */ bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const formatSeconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(2)} s`;
const formatMs = (/** @type {number} */ ms) => `${Math.round(ms)} ms`;
const formatCls = (/** @type {number} */ cls) => (cls === 0 ? "0" : cls.toFixed(4));

/**
 * A row of Lighthouse's table: `target` null is reported without one; `pass` null where the target does not apply to the route; `judgedBy`,
 * the figure the verdict is on when not `key`.
 * @typedef {{ key: FigureKey, label: string, target: string | null, pass: (value: number, route: string) => boolean | null,
 *   format: (value: number) => string, judgedBy?: FigureKey }} LighthouseRow
 */

const score = (/** @type {number} */ value) => String(Math.round(value));
const full = (/** @type {number} */ value) => value >= 100;
const none = () => null;

/** @type {LighthouseRow[]} */
export const LIGHTHOUSE_ROWS = [
  {
    key: "status",
    label: "HTTP status",
    target: `200 (404 on ${NOT_FOUND_PATH})`,
    pass: (v, route) => v === (route === NOT_FOUND_PATH ? 404 : 200),
    format: String,
  },
  { key: "performance", label: "Performance", target: "100", pass: full, format: score },
  { key: "accessibility", label: "Accessibility", target: "100", pass: full, format: score },
  // On the 404 page, without the audits it fails by design (scripts/bench/audits.js notFoundByDesign).
  { key: "bestPractices", judgedBy: "bestPracticesByDesign", label: "Best practices", target: "100", pass: full, format: score },
  { key: "seo", judgedBy: "seoByDesign", label: "SEO", target: "100", pass: full, format: score },
  { key: "fcpMs", label: "First Contentful Paint", target: "< 1.0 s", pass: (v) => v < 1000, format: formatSeconds },
  { key: "lcpMs", label: "Largest Contentful Paint", target: "< 1.8 s", pass: (v) => v < 1800, format: formatSeconds },
  { key: "tbtMs", label: "Total Blocking Time", target: "< 50 ms", pass: (v) => v < 50, format: formatMs },
  { key: "cls", label: "Cumulative Layout Shift", target: "0", pass: (v) => v === 0, format: formatCls },
  { key: "totalBytes", label: "Transferred, total", target: null, pass: none, format: formatKB },
  {
    key: "jsBytes",
    label: "JavaScript transferred",
    target: "< 90 kB on /",
    pass: (v, route) => (route === "/" ? v < 90_000 : null),
    format: formatKB,
  },
  { key: "cssBytes", label: "CSS transferred", target: "< 15 kB", pass: (v) => v < 15_000, format: formatKB },
  { key: "requests", label: "Requests", target: null, pass: none, format: String },
  { key: "cpuIndex", label: "Host CPU index", target: null, pass: none, format: score },
];

/** The Lighthouse checks (issue 4's targets), one per route and figure with a target. @param {RouteResult[]} routes @returns {Check[]} */
export const lighthouseChecks = (routes) =>
  routes.flatMap((route) =>
    LIGHTHOUSE_ROWS.flatMap(({ key, judgedBy, label, target, pass, format }) => {
      const value = route.median[judgedBy ?? key];
      const verdict = target === null ? null : value === null ? false : pass(value, route.route);
      if (target === null || verdict === null) return [];
      return [{ scope: route.route, metric: label, shown: value === null ? "n/a" : format(value), target, pass: verdict }];
    }),
  );

/** Issues 22 and 30: each route's median TBT within this factor of the static anchor's, in the same run. */
export const ANCHOR_TBT_FACTOR = 1.5;

/**
 * Each route's median Total Blocking Time against the anchor's: / and /about against their own copies, every other route against the higher
 * of the two; "not measured" (a FAIL) without the anchor.
 * @param {RouteResult[]} ours @param {RouteResult[] | null} anchor
 * @returns {Check[]}
 */
export function anchorChecks(ours, anchor) {
  const anchorTbt = new Map((anchor ?? []).flatMap((route) => (route.median.tbtMs === null ? [] : [[route.route, route.median.tbtMs]])));
  return ours.map((route) => {
    const value = route.median.tbtMs;
    const reference = anchorTbt.get(route.route) ?? (anchorTbt.size > 0 ? Math.max(...anchorTbt.values()) : null);
    const limit = reference === null ? null : reference * ANCHOR_TBT_FACTOR;
    return {
      scope: route.route,
      metric: "Total Blocking Time against the static anchor",
      shown: value === null ? "not measured" : `${Math.round(value)} ms`,
      target: `≤ ${ANCHOR_TBT_FACTOR}× the anchor's ${reference === null ? "(not measured)" : `${Math.round(reference)} ms = ${Math.round(limit ?? 0)} ms`}`,
      pass: value !== null && limit !== null && value <= limit,
    };
  });
}

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

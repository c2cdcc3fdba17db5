// @ts-check
// Issue 4's Lighthouse targets, issues 22 and 30's against the static anchor, and issue 10's serving targets, each figure beside its target
// with PASS or FAIL. 1 kB = 1000 bytes.
import { NOT_FOUND_PATH } from "./config.js";

/** @typedef {import("./lighthouse.js").FigureKey} FigureKey */
/** @typedef {import("./lighthouse.js").RouteResult} RouteResult */
/** @typedef {import("./serving.js").ServingResult} ServingResult */

/** @typedef {{ scope: string, metric: string, value: number | null, shown: string, target: string, pass: boolean }} Check value: raw (ms, bytes, score, ratio); shown: formatted. */

/** @param {number} bytes */
export const formatKB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
/** @param {number} ms */
export const formatSeconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
/** @param {number} ms */
export const formatMs = (ms) => `${Math.round(ms)} ms`;
/** @param {number} cls */
const formatCls = (cls) => (cls === 0 ? "0" : cls.toFixed(4));

/**
 * A row of Lighthouse's table: `target` null is reported without one; `pass` null where the target does not apply to the route; `judgedBy`,
 * the figure the verdict is on when not `key`.
 * @typedef {{ key: FigureKey, label: string, target: string | null, pass: (value: number, route: string) => boolean | null,
 *   format: (value: number) => string, judgedBy?: FigureKey }} LighthouseRow
 */

const score = /** @param {number} value */ (value) => String(Math.round(value));
const full = /** @param {number} value */ (value) => value >= 100;
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

/** Each junk flood is served at least this share of the same server's rate on cached `/`. */
export const FLOOD_RATIO = 0.5;
/** Real visitors' page loads during a flood. */
export const VISITOR_P95_MS = 100;
/** Server memory growth over the floods. */
export const MEMORY_GROWTH_MB = 50;

/** The serving checks (issue 10's targets). @param {ServingResult} serving @returns {Check[]} */
export function servingChecks(serving) {
  /** @type {Check[]} */
  const checks = [];
  for (const flood of serving.floods) {
    const clean = flood.figures.errors === 0 && flood.figures.unexpectedStatus === 0;
    checks.push({
      scope: flood.name,
      metric: "Flood req/s ÷ cached / req/s",
      value: flood.ratio,
      shown: `${flood.ratio.toFixed(2)} (${flood.figures.requestsPerSecond} req/s${clean ? "" : `, ${flood.figures.unexpectedStatus} unexpected statuses, ${flood.figures.errors} errors`})`,
      target: `≥ ${FLOOD_RATIO}, every answer ${flood.expect404 ? "404" : "200"}`,
      pass: flood.ratio >= FLOOD_RATIO && clean,
    });
  }
  const { visitors, memory, caching } = serving;
  checks.push({
    scope: `visitors during ${visitors.during}`,
    metric: "Page load p95",
    value: visitors.p95Ms,
    shown: `${visitors.p95Ms} ms (${visitors.loads} loads, ${visitors.notOk} not 200)`,
    target: `< ${VISITOR_P95_MS} ms, all 200`,
    pass: visitors.loads > 0 && visitors.p95Ms < VISITOR_P95_MS && visitors.notOk === 0,
  });
  checks.push({
    scope: "server",
    metric: "Memory growth over the floods",
    value: memory.growthMb,
    shown: `${memory.growthMb} MB (${memory.beforeMb} → ${memory.afterMb} MB)`,
    target: `< ${MEMORY_GROWTH_MB} MB`,
    pass: memory.growthMb < MEMORY_GROWTH_MB,
  });
  const shared =
    /\bpublic\b/.test(caching.cacheControl ?? "") &&
    /\bs-maxage=\d+/.test(caching.cacheControl ?? "") &&
    !/no-store|private/.test(caching.cacheControl ?? "");
  checks.push({
    scope: "/",
    metric: "Twice the same bytes; ETag → 304; shared-cacheable",
    value: null,
    shown: `${caching.sameBytes ? "same bytes" : "different bytes"}, ${caching.etag ?? "no ETag"} → ${caching.conditionalStatus}, ${caching.cacheControl ?? "no Cache-Control"}`,
    target: "same, 304, public with s-maxage",
    pass: caching.sameBytes && caching.etag !== null && caching.conditionalStatus === 304 && shared,
  });
  return checks;
}

/** The Lighthouse checks (issue 4's targets), one per route and figure with a target. @param {RouteResult[]} routes @returns {Check[]} */
export function lighthouseChecks(routes) {
  /** @type {Check[]} */
  const checks = [];
  for (const route of routes) {
    for (const row of LIGHTHOUSE_ROWS) {
      const value = route.median[row.judgedBy ?? row.key];
      const pass = row.target === null ? null : value === null ? false : row.pass(value, route.route);
      if (row.target === null || pass === null) continue;
      checks.push({
        scope: route.route,
        metric: row.label,
        value,
        shown: value === null ? "n/a" : row.format(value),
        target: row.target,
        pass,
      });
    }
  }
  return checks;
}

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
      value,
      shown: value === null ? "not measured" : `${Math.round(value)} ms`,
      target: `≤ ${ANCHOR_TBT_FACTOR}× the anchor's ${reference === null ? "(not measured)" : `${Math.round(reference)} ms = ${Math.round(limit ?? 0)} ms`}`,
      pass: value !== null && limit !== null && value <= limit,
    };
  });
}

// @ts-check
// Lighthouse 12 through its Node API against the production server: the default config (mobile form factor, simulated throttling), a fresh
// Chromium per run kept off the network by the offline guard, medians over the runs; then the static anchor (a hand-written, zero-script
// copy of / and /about served by nginx: ../shared/anchors/static-limit or STATIC_ANCHOR_DIR) in the same run, which each route's Total
// Blocking Time is judged against. Reports are kept beside the results.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
// chrome-launcher is lighthouse's own dependency, hoisted by npm; it is not a direct dependency.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { notFoundByDesign, scoreWithout } from "./audits.js";
import { CHROME_PATH, CHROMIUM_FLAGS } from "../chromium.js";
import { killOnExit, stopChildOnCleanup } from "./cleanup.js";
import { freePort, isLoopbackHost } from "./http.js";
import { startOfflineGuard } from "./offline-guard.js";

import { checksTable } from "./report.js";
import { answering, startProductionServer } from "./server.js";
import { median } from "./stats.js";
import { anchorChecks, blockedNote, lighthouseChecks, lighthouseTable } from "./lighthouse-report.js";

/** @typedef {import("lighthouse").Result} LighthouseResult */

/** Every figure of a page load. */
const FIGURE_KEYS = /** @type {const} */ ([
  ...["status", "performance", "accessibility", "bestPractices", "seo", "bestPracticesByDesign", "seoByDesign", "fcpMs", "lcpMs", "tbtMs"],
  ...["cls", "totalBytes", "jsBytes", "cssBytes", "requests", "cpuIndex"],
]);
/**
 * One page load's figures (or their medians): category scores 0–100 (the *ByDesign ones without the audits a 404 page fails by design,
 * audits.js), times in ms, bytes as transferred, and the host's CPU index (Lighthouse's BenchmarkIndex: it drops when other work competes
 * for the CPU).
 * @typedef {typeof FIGURE_KEYS[number]} FigureKey
 * @typedef {Record<FigureKey, number | null>} PageFigures
 * @typedef {{ run: number, figures: PageFigures | null, error?: string, externalRequests: string[] }} RunResult
 * @typedef {{ route: string, runs: RunResult[], median: PageFigures, versions?: string }} RouteResult
 */

/** @param {number | null | undefined} score */
const percent = (score) => (typeof score === "number" ? Math.round(score * 100) : null);

/** @param {LighthouseResult} lhr @returns {Array<Record<string, unknown>>} */
function networkRequests(lhr) {
  const items = /** @type {{ items?: unknown } | undefined} */ (lhr.audits["network-requests"]?.details)?.items;
  return Array.isArray(items) ? items : [];
}

/** @param {LighthouseResult} lhr @returns {PageFigures} */
export function pageFigures(lhr) {
  const numeric = (/** @type {string} */ id) => lhr.audits[id]?.numericValue ?? null;
  const summary = /** @type {{ items?: Array<{ resourceType: string, requestCount: number, transferSize: number }> } | undefined} */ (
    lhr.audits["resource-summary"]?.details
  );
  const of = (/** @type {string} */ type) => summary?.items?.find((item) => item.resourceType === type) ?? null;
  const documents = networkRequests(lhr).filter((request) => request.resourceType === "Document");
  const document = documents.find((request) => request.url === lhr.mainDocumentUrl) ?? documents[0];
  const status = typeof document?.statusCode === "number" ? document.statusCode : null;
  const excused = notFoundByDesign(lhr, status);
  return {
    status,
    performance: percent(lhr.categories.performance?.score),
    accessibility: percent(lhr.categories.accessibility?.score),
    bestPractices: percent(lhr.categories["best-practices"]?.score),
    seo: percent(lhr.categories.seo?.score),
    bestPracticesByDesign: scoreWithout(lhr, "best-practices", excused),
    seoByDesign: scoreWithout(lhr, "seo", excused),
    fcpMs: numeric("first-contentful-paint"),
    lcpMs: numeric("largest-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    totalBytes: of("total")?.transferSize ?? null,
    jsBytes: of("script")?.transferSize ?? null,
    cssBytes: of("stylesheet")?.transferSize ?? null,
    requests: of("total")?.requestCount ?? null,
    cpuIndex: lhr.environment.benchmarkIndex ?? null,
  };
}

/** @param {PageFigures[]} runs @returns {PageFigures} */
const medianFigures = (runs) =>
  /** @type {PageFigures} */ (Object.fromEntries(FIGURE_KEYS.map((key) => [key, median(runs.map((run) => run[key]))])));

/**
 * Every route `runs` times, each in a fresh Chromium; each run's JSON and HTML report in `lhrDir`.
 * @param {string} origin @param {string[]} routes @param {{ runs: number, lhrDir: string, guardFlags: string[] }} options
 * @returns {Promise<RouteResult[]>}
 */
async function runLighthouse(origin, routes, { runs, lhrDir, guardFlags }) {
  mkdirSync(lhrDir, { recursive: true });
  const results = [];
  for (const route of routes) {
    /** @type {RunResult[]} */
    const routeRuns = [];
    let versions;
    for (let run = 1; run <= runs; run += 1) {
      /** @type {RunResult} */
      const result = { run, figures: null, externalRequests: [] };
      // chrome-launcher's own SIGINT handler would exit at once; cleanup.js kills Chromium on exit instead.
      const chromeFlags = ["--headless=new", ...CHROMIUM_FLAGS, ...guardFlags];
      const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags, handleSIGINT: false, logLevel: "silent" });
      const forget = killOnExit(chrome.kill);
      try {
        // No config: Lighthouse's default, mobile with simulated throttling. ignoreStatusCode: the 404 route is measured too.
        const outcome = await lighthouse(`${origin}${route}`, {
          port: chrome.port,
          output: "html",
          logLevel: "error",
          ignoreStatusCode: true,
        });
        const lhr = outcome?.lhr;
        if (!lhr) throw new Error("Lighthouse returned no result");
        versions ??= `Lighthouse ${lhr.lighthouseVersion} in ${/HeadlessChrome\/[\d.]+/.exec(lhr.environment.hostUserAgent)?.[0] ?? "Chromium"}`;
        result.externalRequests = networkRequests(lhr)
          .map((request) => String(request.url))
          .filter((url) => /^(https?|wss?):/.test(url) && !isLoopbackHost(new URL(url).hostname));
        const file = join(lhrDir, `${route === "/" ? "home" : route.slice(1).replace(/[^a-z0-9]+/gi, "-")}-${run}`);
        writeFileSync(`${file}.json`, JSON.stringify(lhr));
        writeFileSync(`${file}.html`, String(outcome.report));
        if (lhr.runtimeError) result.error = `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`;
        else result.figures = pageFigures(lhr);
      } catch (error) {
        result.error = error instanceof Error ? error.message : String(error);
      } finally {
        chrome.kill();
        forget();
      }
      routeRuns.push(result);
      const f = result.figures;
      const figures = f && `perf ${f.performance} a11y ${f.accessibility} bp ${f.bestPractices} seo ${f.seo} TBT ${f.tbtMs?.toFixed(0)} ms`;
      console.log(`lighthouse ${origin}${route} run ${run}/${runs}: ${figures ?? `ERROR ${result.error}`}`);
    }
    const good = routeRuns.flatMap((run) => (run.figures ? [run.figures] : []));
    results.push({ route, runs: routeRuns, median: medianFigures(good), versions });
  }
  return results;
}

/** The static anchor's folder (serve.sh and site/): STATIC_ANCHOR_DIR, or ../shared/anchors/static-limit beside the checkout. */
const anchorDir = () =>
  resolve(
    process.env.STATIC_ANCHOR_DIR ?? join(fileURLToPath(new URL("../..", import.meta.url)), "..", "shared", "anchors", "static-limit"),
  );

/** Starts the anchor's nginx on a free loopback port, or says why it cannot. @returns {Promise<{ origin: string, stop: () => Promise<void> } | { skipped: string }>} */
async function startStaticAnchor() {
  const dir = anchorDir();
  if (!existsSync(join(dir, "serve.sh"))) return { skipped: `no static anchor at ${dir} (set STATIC_ANCHOR_DIR)` };
  if (spawnSync("sh", ["-c", "command -v nginx"]).status !== 0) return { skipped: "nginx not found (apt-get install nginx-light)" };
  const port = await freePort();
  const child = spawn("bash", [join(dir, "serve.sh")], { env: { ...process.env, PORT: String(port) }, stdio: "ignore" });
  const { stop } = stopChildOnCleanup(child, 3_000);
  const origin = `http://127.0.0.1:${port}`;
  try {
    await answering(origin, child, 15_000);
  } catch (error) {
    await stop();
    return { skipped: `its nginx did not start (${error instanceof Error ? error.message : String(error)})` };
  }
  return { origin, stop };
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "lighthouse",
  title: "Lighthouse",
  async run({ config, logDir }) {
    if (!existsSync(CHROME_PATH))
      throw new Error(`Chromium not found at ${CHROME_PATH}: install it, set CHROME_PATH, or BENCH_SKIP=lighthouse.`);
    const server = await startProductionServer({ logFile: join(logDir, "lighthouse-server.log") });
    const guard = await startOfflineGuard();
    /** @type {RouteResult[]} */
    let routes;
    /** @type {RouteResult[] | string} The anchor's routes, or why it was not measured. */
    let anchor;
    /** @type {Record<string, number>} */
    let blocked = {};
    try {
      const measure = (/** @type {string} */ origin, /** @type {string[]} */ paths, /** @type {string} */ dir) =>
        runLighthouse(origin, paths, { runs: config.runs, lhrDir: join(logDir, dir), guardFlags: guard.chromeFlags });
      routes = await measure(server.origin, config.routes, "lighthouse");
      const nginx = await startStaticAnchor();
      anchor = "skipped" in nginx ? nginx.skipped : await measure(nginx.origin, ["/", "/about"], "lighthouse-anchor").finally(nginx.stop);
    } finally {
      blocked = guard.blocked();
      await guard.stop();
      await server.stop();
    }
    if (routes.every((route) => route.runs.every((run) => run.figures === null))) {
      throw new Error(`Lighthouse could not measure any page (${routes[0]?.runs[0]?.error ?? "no route measured"}).`);
    }
    const againstAnchor = anchorChecks(routes, typeof anchor === "string" ? null : anchor);
    const externalRequests = [...new Set(routes.flatMap((route) => route.runs.flatMap((run) => run.externalRequests)))];
    return {
      lines: [
        lighthouseTable(routes, config.runs),
        "",
        `${routes.find((route) => route.versions)?.versions}; reports (JSON and HTML) in ${join(logDir, "lighthouse")}/.`,
        blockedNote(externalRequests, blocked),
        "",
        ...(typeof anchor === "string"
          ? [`Static anchor not measured: ${anchor}.`]
          : ["### Lighthouse on the static anchor (same run)", "", lighthouseTable(anchor, config.runs)]),
        "",
        checksTable(againstAnchor),
      ],
      checks: [...lighthouseChecks(routes), ...againstAnchor],
      record: { routes, externalRequests, anchor },
    };
  },
};

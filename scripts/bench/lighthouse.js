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
import { freePort, isLoopbackHost, waitForHttp } from "./http.js";
import { startOfflineGuard } from "./offline-guard.js";
import { blockedNote, lighthouseTable } from "./report.js";
import { startProductionServer } from "./server.js";
import { median } from "./stats.js";
import { anchorChecks, lighthouseChecks } from "./targets.js";

/** @typedef {import("lighthouse").Result} LighthouseResult */

/**
 * One page load's figures (or their medians): category scores 0–100 (the *ByDesign ones without the audits a 404 page fails by design,
 * audits.js), times in ms, bytes as transferred, and the host's CPU index (Lighthouse's BenchmarkIndex: it drops when other work competes
 * for the CPU).
 * @typedef {{ status: number | null, performance: number | null, accessibility: number | null, bestPractices: number | null,
 *   seo: number | null, bestPracticesByDesign: number | null, seoByDesign: number | null, fcpMs: number | null, lcpMs: number | null,
 *   tbtMs: number | null, cls: number | null, totalBytes: number | null, jsBytes: number | null, cssBytes: number | null,
 *   requests: number | null, cpuIndex: number | null }} PageFigures
 * @typedef {keyof PageFigures} FigureKey
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

const FIGURE_KEYS = /** @type {FigureKey[]} */ (
  "status performance accessibility bestPractices seo bestPracticesByDesign seoByDesign fcpMs lcpMs tbtMs cls totalBytes jsBytes cssBytes requests cpuIndex".split(
    " ",
  )
);
/** @param {PageFigures[]} runs @returns {PageFigures} */
const medianFigures = (runs) =>
  /** @type {PageFigures} */ (Object.fromEntries(FIGURE_KEYS.map((key) => [key, median(runs.map((run) => run[key]))])));

/** @param {string} route */
const routeSlug = (route) => (route === "/" ? "home" : route.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-"));

/**
 * Every route `runs` times; each run's JSON and HTML report in `lhrDir`.
 * @param {{ origin: string, guard: Awaited<ReturnType<typeof startOfflineGuard>>, routes: string[], runs: number, lhrDir: string }} options
 * @returns {Promise<RouteResult[]>}
 */
async function runLighthouse({ origin, guard, routes, runs, lhrDir }) {
  mkdirSync(lhrDir, { recursive: true });
  /** @type {RouteResult[]} */
  const results = [];
  for (const route of routes) {
    /** @type {RunResult[]} */
    const routeRuns = [];
    let versions;
    for (let run = 1; run <= runs; run += 1) {
      const outcome = await runOnce(`${origin}${route}`, guard.chromeFlags);
      /** @type {RunResult} */
      const result = { run, figures: null, error: outcome.error, externalRequests: [] };
      const lhr = outcome.lhr;
      if (lhr) {
        versions ??= `Lighthouse ${lhr.lighthouseVersion} in ${/HeadlessChrome\/[\d.]+/.exec(lhr.environment.hostUserAgent)?.[0] ?? "Chromium"}`;
        result.externalRequests = networkRequests(lhr)
          .map((request) => String(request.url))
          .filter((url) => /^(https?|wss?):/.test(url) && !isLoopbackHost(new URL(url).hostname));
        const file = join(lhrDir, `${routeSlug(route)}-${run}.json`);
        writeFileSync(file, JSON.stringify(lhr));
        if (outcome.html) writeFileSync(file.replace(/\.json$/, ".html"), outcome.html);
        if (lhr.runtimeError) result.error = `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`;
        else result.figures = pageFigures(lhr);
      }
      routeRuns.push(result);
      const f = result.figures;
      console.log(
        `lighthouse ${origin}${route} run ${run}/${runs}: ` +
          (f
            ? `perf ${f.performance} a11y ${f.accessibility} bp ${f.bestPractices} seo ${f.seo} TBT ${f.tbtMs?.toFixed(0)} ms, CPU index ${f.cpuIndex?.toFixed(0)}`
            : `ERROR ${result.error}`),
      );
    }
    const good = routeRuns.flatMap((run) => (run.figures ? [run.figures] : []));
    results.push({ route, runs: routeRuns, median: medianFigures(good), versions });
  }
  return results;
}

/**
 * One Lighthouse run in a fresh Chromium, closed afterwards whatever happens.
 * @param {string} url @param {string[]} guardFlags
 * @returns {Promise<{ lhr?: LighthouseResult, html?: string, error?: string }>}
 */
async function runOnce(url, guardFlags) {
  // chrome-launcher's own SIGINT handler would exit at once; cleanup.js kills Chromium on exit instead.
  const chromeFlags = ["--headless=new", ...CHROMIUM_FLAGS, ...guardFlags];
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags, handleSIGINT: false, logLevel: "silent" });
  const forget = killOnExit(chrome.kill);
  try {
    // No config: Lighthouse's default, mobile with simulated throttling. ignoreStatusCode: the 404 route is measured too.
    const result = await lighthouse(url, { port: chrome.port, output: "html", logLevel: "error", ignoreStatusCode: true });
    return result ? { lhr: result.lhr, html: String(result.report) } : { error: "Lighthouse returned no result" };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    chrome.kill();
    forget();
  }
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
    await waitForHttp(`${origin}/`, { timeoutMs: 15_000, isAlive: () => child.exitCode === null });
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
        runLighthouse({ origin, guard, routes: paths, runs: config.runs, lhrDir: join(logDir, dir) });
      routes = await measure(server.origin, config.routes, "lighthouse");
      const nginx = await startStaticAnchor();
      if ("skipped" in nginx) anchor = nginx.skipped;
      else {
        try {
          anchor = await measure(nginx.origin, ["/", "/about"], "lighthouse-anchor");
        } finally {
          await nginx.stop();
        }
      }
    } finally {
      blocked = guard.blocked();
      await guard.stop();
      await server.stop();
    }
    if (routes.every((route) => route.runs.every((run) => run.figures === null))) {
      throw new Error(`Lighthouse could not measure any page (${routes[0]?.runs[0]?.error ?? "no route measured"}).`);
    }
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
      ],
      checks: [...lighthouseChecks(routes), ...anchorChecks(routes, typeof anchor === "string" ? null : anchor)],
      record: { routes, externalRequests, anchor },
    };
  },
};

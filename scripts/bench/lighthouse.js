// @ts-check
// Lighthouse 12 through its Node API against the production server: the default config (mobile
// form factor, simulated throttling), a fresh Chromium per run kept off the network by the offline
// guard, medians over the runs. Its JSON and HTML reports are kept beside the bench's results.
import { accessSync, constants, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
// chrome-launcher is lighthouse's own dependency, hoisted by npm; it is not a direct dependency.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { flaggedAudits, mergeFlagged, notFoundByDesign, scoreWithout } from "./audits.js";
import { CHROME_PATH, CHROMIUM_FLAGS } from "../chromium.js";
import { killOnExit } from "./cleanup.js";
import { isLoopbackHost } from "./http.js";
import { anchorChecks, anchorDir, startStaticAnchor } from "./navigation.js";
import { startOfflineGuard } from "./offline-guard.js";
import { blockedNotes, flaggedReport, lighthouseTable } from "./report.js";
import { startProductionServer } from "./server.js";
import { median } from "./stats.js";
import { lighthouseChecks } from "./targets.js";

/** @typedef {import("lighthouse").Result} LighthouseResult */
/** @typedef {import("./audits.js").FlaggedAudit} FlaggedAudit */

const CHROME_FLAGS = ["--headless=new", ...CHROMIUM_FLAGS];

/**
 * The figures the bench reports for one page load (or the median of several).
 * @typedef {object} PageFigures
 * @property {number | null} status HTTP status of the main document.
 * @property {number | null} performance Category scores, 0–100.
 * @property {number | null} accessibility
 * @property {number | null} bestPractices
 * @property {number | null} seo
 * @property {number | null} bestPracticesByDesign The score without the audits a 404 page fails by
 *   design (audits.js notFoundByDesign); on any other page, the score itself.
 * @property {number | null} seoByDesign
 * @property {number | null} fcpMs
 * @property {number | null} lcpMs
 * @property {number | null} tbtMs
 * @property {number | null} cls
 * @property {number | null} totalBytes Bytes transferred, all requests (headers included, as Lighthouse counts).
 * @property {number | null} jsBytes Bytes transferred for resourceType Script.
 * @property {number | null} cssBytes Bytes transferred for resourceType Stylesheet.
 * @property {number | null} requests Number of requests.
 * @property {number | null} cpuIndex Lighthouse's BenchmarkIndex of the host during the run: it drops
 *   when other work competes for the CPU, and TBT and the performance score then read worse.
 */

/** @typedef {keyof PageFigures} FigureKey */

/**
 * @typedef {object} RunResult
 * @property {number} run 1-based.
 * @property {PageFigures | null} figures Null when the run failed.
 * @property {string | undefined} error Lighthouse's runtime error, or a thrown error.
 * @property {string[]} warnings Lighthouse's run warnings.
 * @property {string[]} externalRequests Non-loopback URLs in Lighthouse's network log (blocked; should be none).
 * @property {Record<string, number>} blockedHosts Connections the offline guard refused during this run, by
 *   host: the page's (e.g. an iframe) and Chromium's own background traffic.
 * @property {FlaggedAudit[]} flagged
 * @property {string | undefined} lhrFile Lighthouse's JSON result, relative to the repository (its HTML report beside it).
 * @property {number} seconds Wall time of the run.
 */

/**
 * @typedef {object} RouteResult
 * @property {string} route
 * @property {RunResult[]} runs
 * @property {PageFigures} median Per-figure median over the successful runs.
 * @property {Array<FlaggedAudit & { flaggedInRuns: number }>} flagged
 * @property {{ chromium: string, lighthouse: string } | undefined} environment
 */

/** @param {number | null | undefined} score */
const percent = (score) => (typeof score === "number" ? Math.round(score * 100) : null);

/**
 * @param {LighthouseResult} lhr
 * @param {string} id
 */
function numeric(lhr, id) {
  const value = lhr.audits[id]?.numericValue;
  return typeof value === "number" ? value : null;
}

/**
 * The rows of the network-requests audit (its details are a table of plain records).
 * @param {LighthouseResult} lhr
 * @returns {Array<Record<string, unknown>>}
 */
function networkRequests(lhr) {
  const details = /** @type {{ items?: unknown } | undefined} */ (lhr.audits["network-requests"]?.details);
  return Array.isArray(details?.items) ? details.items : [];
}

/**
 * @param {LighthouseResult} lhr
 * @returns {PageFigures}
 */
export function pageFigures(lhr) {
  const requests = networkRequests(lhr);
  // Lighthouse's own sums of the network log, by resource type.
  const summary = /** @type {{ items?: Array<{ resourceType: string, requestCount: number, transferSize: number }> } | undefined} */ (
    lhr.audits["resource-summary"]?.details
  );
  const of = (/** @type {string} */ type) => summary?.items?.find((item) => item.resourceType === type) ?? null;
  const document =
    requests.find((request) => request.resourceType === "Document" && request.url === lhr.mainDocumentUrl) ??
    requests.find((request) => request.resourceType === "Document");
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
    fcpMs: numeric(lhr, "first-contentful-paint"),
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    cls: numeric(lhr, "cumulative-layout-shift"),
    totalBytes: of("total")?.transferSize ?? null,
    jsBytes: of("script")?.transferSize ?? null,
    cssBytes: of("stylesheet")?.transferSize ?? null,
    requests: of("total")?.requestCount ?? null,
    cpuIndex: lhr.environment.benchmarkIndex ?? null,
  };
}

/**
 * @param {PageFigures[]} runs
 * @returns {PageFigures}
 */
export function medianFigures(runs) {
  /** @type {FigureKey[]} */
  const keys = [
    "status",
    "performance",
    "accessibility",
    "bestPractices",
    "seo",
    "bestPracticesByDesign",
    "seoByDesign",
    "fcpMs",
    "lcpMs",
    "tbtMs",
    "cls",
    "totalBytes",
    "jsBytes",
    "cssBytes",
    "requests",
    "cpuIndex",
  ];
  return /** @type {PageFigures} */ (Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => run[key]))])));
}

/** @param {string} route */
export function routeSlug(route) {
  return route === "/" ? "home" : route.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-");
}

/**
 * @param {object} options
 * @param {string} options.origin The production server.
 * @param {string} options.chromePath
 * @param {string[]} options.extraChromeFlags The offline guard's flags.
 * @param {() => Record<string, number>} options.blockedSoFar The offline guard's refusals so far, by host.
 * @param {string[]} options.routes
 * @param {number} options.runs
 * @param {string} options.lhrDir Where full Lighthouse results go.
 * @returns {Promise<RouteResult[]>}
 */
export async function runLighthouse({ origin, chromePath, extraChromeFlags, blockedSoFar, routes, runs, lhrDir }) {
  mkdirSync(lhrDir, { recursive: true });
  /** @type {RouteResult[]} */
  const results = [];
  for (const route of routes) {
    /** @type {RunResult[]} */
    const routeRuns = [];
    /** @type {RouteResult["environment"]} */
    let environment;
    for (let run = 1; run <= runs; run += 1) {
      const started = Date.now();
      const blockedBefore = blockedSoFar();
      const outcome = await runOnce(`${origin}${route}`, chromePath, extraChromeFlags);
      /** @type {Record<string, number>} */
      const blockedHosts = {};
      for (const [host, count] of Object.entries(blockedSoFar())) {
        const during = count - (blockedBefore[host] ?? 0);
        if (during > 0) blockedHosts[host] = during;
      }
      /** @type {RunResult} */
      const result = {
        run,
        figures: null,
        error: outcome.error,
        warnings: [],
        externalRequests: [],
        blockedHosts,
        flagged: [],
        lhrFile: undefined,
        seconds: 0,
      };
      const lhr = outcome.lhr;
      if (lhr) {
        environment ??= { chromium: lhr.environment.hostUserAgent, lighthouse: lhr.lighthouseVersion };
        result.warnings = lhr.runWarnings;
        result.externalRequests = networkRequests(lhr)
          .map((request) => String(request.url))
          .filter((url) => /^(https?|wss?):/.test(url) && !isLoopbackHost(new URL(url).hostname));
        result.lhrFile = join(lhrDir, `${routeSlug(route)}-${run}.json`);
        writeFileSync(result.lhrFile, JSON.stringify(lhr));
        if (outcome.html) writeFileSync(result.lhrFile.replace(/\.json$/, ".html"), outcome.html);
        if (lhr.runtimeError) result.error = `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`;
        else {
          result.figures = pageFigures(lhr);
          result.flagged = flaggedAudits(lhr);
        }
      }
      result.seconds = Math.round((Date.now() - started) / 100) / 10;
      routeRuns.push(result);
      const f = result.figures;
      console.log(
        `lighthouse ${route} run ${run}/${runs} (${result.seconds} s): ` +
          (f
            ? `perf ${f.performance} a11y ${f.accessibility} bp ${f.bestPractices} seo ${f.seo} FCP ${f.fcpMs?.toFixed(0)} ms LCP ${f.lcpMs?.toFixed(0)} ms TBT ${f.tbtMs?.toFixed(0)} ms, CPU index ${f.cpuIndex?.toFixed(0)}`
            : `ERROR ${result.error}`),
      );
    }
    const good = routeRuns.flatMap((run) => (run.figures ? [run.figures] : []));
    results.push({
      route,
      runs: routeRuns,
      median: medianFigures(good),
      flagged: mergeFlagged(routeRuns.map((run) => run.flagged)),
      environment,
    });
  }
  return results;
}

/**
 * One Lighthouse run in a fresh Chromium, closed afterwards whatever happens.
 * @param {string} url
 * @param {string} chromePath
 * @param {string[]} extraChromeFlags
 * @returns {Promise<{ lhr?: LighthouseResult, html?: string, error?: string }>}
 */
async function runOnce(url, chromePath, extraChromeFlags) {
  // chrome-launcher's own SIGINT handler would exit at once; cleanup.js kills Chromium on exit instead.
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [...CHROME_FLAGS, ...extraChromeFlags],
    handleSIGINT: false,
    logLevel: "silent",
  });
  const forget = killOnExit(chrome.kill);
  try {
    // No config: Lighthouse's default, i.e. mobile form factor with simulated throttling.
    // ignoreStatusCode: the 404 route must be measured too; every run records its status.
    const result = await lighthouse(url, { port: chrome.port, output: "html", logLevel: "error", ignoreStatusCode: true });
    if (!result) return { error: "Lighthouse returned no result" };
    return { lhr: result.lhr, html: String(result.report) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    chrome.kill();
    forget();
  }
}

/**
 * Lighthouse on the static anchor's / and /about (navigation.js starts its nginx), or why not.
 * @param {{ config: import("./config.js").BenchConfig, guard: Awaited<ReturnType<typeof startOfflineGuard>>, lhrDir: string }} options
 * @returns {Promise<{ routes: RouteResult[] } | { skipped: string }>}
 */
async function measureAnchor({ config, guard, lhrDir }) {
  const anchor = await startStaticAnchor(anchorDir(process.env));
  if ("skipped" in anchor) return anchor;
  try {
    const routes = await runLighthouse({
      origin: anchor.origin,
      chromePath: CHROME_PATH,
      extraChromeFlags: guard.chromeFlags,
      blockedSoFar: guard.blocked,
      routes: ["/", "/about"],
      runs: config.runs,
      lhrDir,
    });
    return { routes };
  } finally {
    await anchor.stop();
  }
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "lighthouse",
  title: "Lighthouse",
  async run({ config, logDir }) {
    try {
      accessSync(CHROME_PATH, constants.X_OK);
    } catch {
      throw new Error(
        `Chromium not found at ${CHROME_PATH}. Install it (apt-get install chromium) or set CHROME_PATH, or skip Lighthouse with BENCH_SKIP=lighthouse.`,
      );
    }
    const server = await startProductionServer({ logFile: join(logDir, "lighthouse-server.log") });
    console.log(`lighthouse: production server at ${server.origin} (log: ${server.logFile})`);
    const guard = await startOfflineGuard();
    /** @type {RouteResult[]} */
    let routes;
    /** @type {Awaited<ReturnType<typeof measureAnchor>> | undefined} */
    let anchor;
    try {
      routes = await runLighthouse({
        origin: server.origin,
        chromePath: CHROME_PATH,
        extraChromeFlags: guard.chromeFlags,
        blockedSoFar: guard.blocked,
        routes: config.routes,
        runs: config.runs,
        lhrDir: join(logDir, "lighthouse"),
      });
      // The static anchor in the same run, so both meet the same load on the machine.
      anchor = await measureAnchor({ config, guard, lhrDir: join(logDir, "lighthouse-anchor") });
    } finally {
      await guard.stop();
      await server.stop();
    }
    if (routes.every((route) => route.runs.every((run) => run.figures === null))) {
      throw new Error(`Lighthouse could not measure any page (${routes[0]?.runs[0]?.error ?? "no route measured"}).`);
    }
    const externalRequests = [...new Set(routes.flatMap((route) => route.runs.flatMap((run) => run.externalRequests)))];
    const environment = routes.find((route) => route.environment)?.environment;
    return {
      lines: [
        lighthouseTable(routes, config.runs),
        "",
        `Lighthouse ${environment?.lighthouse} in ${/HeadlessChrome\/[\d.]+/.exec(environment?.chromium ?? "")?.[0] ?? "Chromium"}; its reports (JSON and HTML) are in ${join(logDir, "lighthouse")}/.`,
        ...blockedNotes(routes, externalRequests),
        "",
        ...(anchor && "routes" in anchor
          ? ["### Lighthouse on the static anchor (same run)", "", lighthouseTable(anchor.routes, config.runs), ""]
          : [`Static anchor skipped: ${anchor?.skipped ?? "not run"}.`, ""]),
        "### What Lighthouse flags",
        "",
        flaggedReport(routes),
      ],
      checks: [...lighthouseChecks(routes), ...(anchor && "routes" in anchor ? anchorChecks(routes, anchor.routes) : [])],
      record: { routes, externalRequests, anchor: anchor && "routes" in anchor ? anchor.routes : null },
    };
  },
};

// @ts-check
// `npm run bench` (not part of `npm test`). Builds if there is no build, starts the production
// server on a free loopback port, runs Lighthouse on every route and the serving loads (floods,
// visitors during a flood, memory, caching headers; serving.js), prints each figure beside its target with PASS or FAIL, and writes
// bench-results/<timestamp>.json and bench-results/latest.json.
//
// Chromium is kept off the network (offline-guard.js): only loopback is reachable.
//
// It exits 0 whether targets pass or fail; non-zero only when it cannot run (no Chromium, the
// build or the server fails, or Lighthouse could measure nothing).
//
// Knobs, for quick runs (defaults: the full run):
//   BENCH_ROUTES=/,/events     Lighthouse routes, comma-separated (default: all seven)
//   BENCH_RUNS=1               Lighthouse runs per route; medians are reported (default 3)
//   BENCH_SKIP=lighthouse      or serving, weight (/events bytes, events-weight.js), calendar (outages,
//                              restarts, two instances, refreshes: calendar.js) or cards (share cards'
//                              first requests, share-cards.js), navigation (clicks from page to page, DevTools
//                              and Xvfb: navigation.js) or anchor (Lighthouse on the static anchor beside ours),
//                              comma-separated: skip that part
//   STATIC_ANCHOR_DIR=/path     the static anchor (default ../shared/anchors/static-limit beside the checkout)
//   BENCH_DURATION=3           seconds per load (default 10)
//   BENCH_CONNECTIONS=20       load client connections (default 50)
//   CHROME_PATH=/path/chrome   Chromium to use (default /usr/bin/chromium)
import { accessSync, constants } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { cleanupAll, handleSignals } from "./cleanup.js";
import { CHROME_PATH } from "../chromium.js";
import { readConfig } from "./config.js";
import { runLighthouse } from "./lighthouse.js";
import { startOfflineGuard } from "./offline-guard.js";
import { blockedNotes, flaggedReport, lighthouseTable, servingTable, summaryLine } from "./report.js";
import { RESULTS_DIR, gitRevision, timestamp, writeResults } from "./results.js";
import { ensureBuild, startProductionServer } from "./server.js";
import { runServing } from "./serving.js";
import { eventsWeightTable, measureEventsWeight } from "./events-weight.js";
import { calendarChecks, calendarTable, runCalendar } from "./calendar.js";
import { measureShareCards, shareCardChecks, shareCardsTable } from "./share-cards.js";
import {
  anchorChecks,
  anchorDir,
  measureCdpTrips,
  measureXvfbTrips,
  navigationChecks,
  navigationTable,
  startStaticAnchor,
} from "./navigation.js";
import { evaluate } from "./targets.js";

/** @param {string} path */
function assertExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium not found at ${path}. Install it (apt-get install chromium) or set CHROME_PATH, or skip Lighthouse with BENCH_SKIP=lighthouse.`,
    );
  }
}

async function main() {
  const config = readConfig(process.env);
  if (config.lighthouse) assertExecutable(CHROME_PATH);
  ensureBuild();

  const startedAt = new Date();
  // Other work on the machine skews both Lighthouse's CPU-based estimates and req/s: record it.
  const loadAtStart = os.loadavg()[0] ?? 0;
  const stamp = timestamp(startedAt);
  const runDir = join(RESULTS_DIR, stamp);
  const server = await startProductionServer({ logFile: join(runDir, "server.log") });
  console.log(`bench: production server at ${server.origin} (log: ${server.logFile})`);

  /** @type {import("./lighthouse.js").RouteResult[]} */
  let routes = [];
  /** @type {Record<string, number>} */
  let blocked = {};
  /** @type {import("./lighthouse.js").RouteResult[]} */
  let anchorRoutes = [];
  /** @type {string | undefined} */
  let anchorSkipped;
  if (config.lighthouse) {
    const guard = await startOfflineGuard();
    try {
      routes = await runLighthouse({
        origin: server.origin,
        chromePath: CHROME_PATH,
        extraChromeFlags: guard.chromeFlags,
        blockedSoFar: guard.blocked,
        routes: config.routes,
        runs: config.runs,
        lhrDir: join(runDir, "lighthouse"),
      });
      // The static anchor in the same run, so both meet the same load on the machine.
      if (config.anchor) {
        const anchor = await startStaticAnchor(anchorDir(process.env));
        if ("skipped" in anchor) anchorSkipped = anchor.skipped;
        else {
          try {
            anchorRoutes = await runLighthouse({
              origin: anchor.origin,
              chromePath: CHROME_PATH,
              extraChromeFlags: guard.chromeFlags,
              blockedSoFar: guard.blocked,
              routes: ["/", "/about"],
              runs: config.runs,
              lhrDir: join(runDir, "lighthouse-anchor"),
            });
          } finally {
            await anchor.stop();
          }
        }
      }
    } finally {
      blocked = guard.blocked();
      await guard.stop();
    }
    if (routes.every((route) => route.runs.every((run) => run.figures === null))) {
      const first = routes[0]?.runs[0]?.error ?? "no route measured";
      throw new Error(`Lighthouse could not measure any page (${first}).`);
    }
  }

  /** @type {import("./serving.js").ServingResult | undefined} */
  let serving;
  if (config.serving) {
    serving = await runServing({
      origin: server.origin,
      pid: server.pid,
      connections: config.connections,
      durationSeconds: config.durationSeconds,
    });
  }
  /** @type {import("./navigation.js").TripResult[]} */
  let trips = [];
  /** @type {Awaited<ReturnType<typeof measureXvfbTrips>> | undefined} */
  let xvfbTrips;
  if (config.navigation) {
    trips = await measureCdpTrips({ origin: server.origin, runs: config.runs });
    xvfbTrips = await measureXvfbTrips({ origin: server.origin, runs: config.runs });
  }
  await server.stop();

  // Servers of their own, one per calendar.
  const weight = config.weight ? await measureEventsWeight({ logDir: runDir }) : undefined;
  const calendar = config.calendar ? await runCalendar({ logDir: runDir }) : undefined;
  const cards = config.cards ? await measureShareCards({ logDir: runDir }) : undefined;

  const checks = [
    ...evaluate(routes, serving),
    ...anchorChecks(routes, anchorRoutes),
    ...(config.navigation ? navigationChecks(trips, xvfbTrips) : []),
    ...(calendar ? calendarChecks(calendar) : []),
    ...(cards ? shareCardChecks(cards) : []),
  ];
  const externalRequests = [...new Set(routes.flatMap((route) => route.runs.flatMap((run) => run.externalRequests)))];
  const environment = {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg()[0] ?? 0 },
    chromium: routes.find((route) => route.environment)?.environment?.chromium ?? null,
    lighthouse: routes.find((route) => route.environment)?.environment?.lighthouse ?? null,
  };
  const revision = gitRevision();

  const output = [
    "",
    `## Benchmark ${startedAt.toISOString()} (commit ${revision ?? "unknown"}, Node ${environment.node}, ${environment.cpus} CPUs, load ${loadAtStart.toFixed(1)}→${environment.loadAverage.atEnd.toFixed(1)}${environment.lighthouse ? `, Lighthouse ${environment.lighthouse}` : ""})`,
  ];
  if (config.lighthouse) {
    output.push("", "### Lighthouse", "", lighthouseTable(routes, config.runs));
    output.push("", ...blockedNotes(routes, externalRequests));
    if (anchorRoutes.length > 0) {
      output.push("", "### Lighthouse on the static anchor (same run)", "", lighthouseTable(anchorRoutes, config.runs), "");
      output.push(
        ...anchorChecks(routes, anchorRoutes).map(
          (check) => `- ${check.pass ? "PASS" : "FAIL"} ${check.scope}: ${check.metric}: ${check.shown} (target ${check.target})`,
        ),
      );
    } else if (config.anchor) output.push("", `Static anchor skipped: ${anchorSkipped ?? "not run"}.`);
  }
  if (config.navigation) {
    output.push(
      "",
      "### Navigation (click to display)",
      "",
      navigationTable(trips, xvfbTrips),
      "",
      "DevTools rows: Lighthouse's throttled phone (150 ms RTT, 1.6 Mbps, CPU 4x), pointer on the link for 300 ms, then a click; " +
        "Chromium never prerenders under DevTools. Xvfb rows: headful Chromium without DevTools, xdotool's pointer, ffmpeg's frames, not throttled.",
    );
    if (xvfbTrips && "skipped" in xvfbTrips) output.push("", `Xvfb trips skipped: ${xvfbTrips.skipped}.`);
  }
  if (serving) {
    output.push(
      "",
      "### Serving",
      "",
      servingTable(serving),
      "",
      `${serving.client}, ${config.connections} connections for ${config.durationSeconds} s per load, one load at a time. ` +
        "Floods send a new URL with every request. Visitors: page loads (document, then stylesheet and icon) one after another while the flood on / runs.",
    );
  }
  if (weight) {
    output.push(
      "",
      "### /events bytes",
      "",
      eventsWeightTable(weight),
      "",
      "The document carries the events it shows: its size stays flat as the calendar grows.",
    );
  }
  if (calendar) {
    output.push(
      "",
      "### The calendar in production",
      "",
      calendarTable(calendar),
      "",
      "Against the tests' fake Google Calendar API on loopback. A visitor loads / every 20 ms (the API every tenth request) for 15 s.",
    );
  }
  if (cards) {
    output.push(
      "",
      "### Share cards",
      "",
      shareCardsTable(cards),
      "",
      "First request of each listed event's card, one at a time (count: p50, p95, max): the second half of the upcoming " +
        "events at once after the calendar's first read, the first half once the cards drawn ahead are done, then every " +
        "other event. /healthz is asked every 25 ms meanwhile.",
      "",
      ...shareCardChecks(cards).map(
        (check) => `- ${check.pass ? "PASS" : "FAIL"} ${check.scope}: ${check.metric}: ${check.shown} (target ${check.target})`,
      ),
    );
  }
  output.push("", `**${summaryLine(checks)}**`);
  if (config.lighthouse) output.push("", "### What Lighthouse flags", "", flaggedReport(routes));

  const file = writeResults(stamp, {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    revision,
    environment,
    config,
    summary: {
      passed: checks.filter((check) => check.pass).length,
      failed: checks.filter((check) => !check.pass).length,
      checks,
      lighthouseMedians: Object.fromEntries(routes.map((route) => [route.route, route.median])),
      serving: serving ?? null,
      eventsWeight: weight ?? null,
      calendar: calendar ?? null,
      shareCards: cards ?? null,
      anchorLighthouse: Object.fromEntries(anchorRoutes.map((route) => [route.route, route.median])),
      navigation: config.navigation ? { devtools: trips, xvfb: xvfbTrips ?? null } : null,
      blockedByGuard: blocked,
      externalRequests,
    },
    lighthouse: routes,
    serving,
  });
  output.push("", `Results: ${file} (and ${join(RESULTS_DIR, "latest.json")}); full Lighthouse reports in ${join(runDir, "lighthouse")}/.`);
  console.log(output.join("\n"));
}

handleSignals();
try {
  await main();
  await cleanupAll();
} catch (error) {
  console.error(`\nbench: cannot run: ${error instanceof Error ? error.message : String(error)}`);
  await cleanupAll();
  process.exit(1);
}

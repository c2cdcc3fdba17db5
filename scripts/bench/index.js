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
//                              first requests, share-cards.js), comma-separated: skip that part
//   BENCH_DURATION=3           seconds per load (default 10)
//   BENCH_CONNECTIONS=20       load client connections (default 50)
//   CHROME_PATH=/path/chrome   Chromium to use (default /usr/bin/chromium)
import { accessSync, constants } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import "./cleanup.js";
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
  await server.stop();

  // Servers of their own, one per calendar.
  const weight = config.weight ? await measureEventsWeight({ logDir: runDir }) : undefined;
  const calendar = config.calendar ? await runCalendar({ logDir: runDir }) : undefined;
  const cards = config.cards ? await measureShareCards({ logDir: runDir }) : undefined;

  const checks = [...evaluate(routes, serving), ...(calendar ? calendarChecks(calendar) : []), ...(cards ? shareCardChecks(cards) : [])];
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
  }
  if (serving) {
    output.push(
      "",
      "### Serving",
      "",
      servingTable(serving),
      "",
      `autocannon, ${config.connections} connections for ${config.durationSeconds} s per load, one load at a time. ` +
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
      blockedByGuard: blocked,
      externalRequests,
    },
    lighthouse: routes,
    serving,
  });
  output.push("", `Results: ${file} (and ${join(RESULTS_DIR, "latest.json")}); full Lighthouse reports in ${join(runDir, "lighthouse")}/.`);
  console.log(output.join("\n"));
}

try {
  await main();
} catch (error) {
  console.error(`\nbench: cannot run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

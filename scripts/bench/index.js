// @ts-check
// `npm run bench` (not part of `npm test`). Builds if there is no build, then runs each section of
// SECTIONS in turn, each against production servers of its own on free loopback ports; prints every
// figure, each one with a target beside it with PASS or FAIL, and writes bench-results/<timestamp>.json
// and bench-results/latest.json.
//
// It exits 0 whether targets pass or fail; non-zero only when it cannot run (no Chromium, the
// build or a server fails, or Lighthouse could measure nothing).
//
// Knobs, for quick runs (defaults: the full run):
//   BENCH_SKIP=lighthouse,…    skip these sections, comma-separated: lighthouse, navigation (clicks from page
//                              to page, the events tabs, /events' weight), serving (floods, visitors during a
//                              flood, memory, caching headers), calendar (outages, restarts, two instances,
//                              refreshes), calendar-scale (the API's weight, old series, memory), cards (share
//                              cards' first requests) or crawl (every share card of a 3,000-event calendar, then GET /)
//   BENCH_ONLY=calendar        run only these sections, comma-separated
//   BENCH_ROUTES=/,/events     Lighthouse routes, comma-separated (default: all seven)
//   BENCH_RUNS=1               Lighthouse runs per route; medians are reported (default 3)
//   BENCH_DURATION=3           seconds per load (default 10)
//   BENCH_CONNECTIONS=20       load client connections (default 50)
//   CHROME_PATH=/path/chrome   Chromium to use (default /usr/bin/chromium)
//   STATIC_ANCHOR_DIR=/path    the static anchor Lighthouse also measures (default ../shared/anchors/static-limit
//                              beside the checkout; its part is skipped with a message when absent)
import os from "node:os";
import { join } from "node:path";
import "./cleanup.js";
import { readConfig } from "./config.js";
import { section as calendar } from "./calendar.js";
import { section as calendarScale } from "./calendar-scale.js";
import { section as lighthouse } from "./lighthouse.js";
import { section as navigation } from "./navigation.js";
import { summaryLine } from "./report.js";
import { RESULTS_DIR, gitRevision, timestamp, writeResults } from "./results.js";
import { ensureBuild } from "./server.js";
import { section as serving } from "./serving.js";
import { section as shareCards } from "./share-cards.js";
import { section as shareCrawl } from "./share-crawl.js";

/** The sections, in the order they run. @type {import("./report.js").Section[]} */
const SECTIONS = [lighthouse, navigation, serving, calendar, calendarScale, shareCards, shareCrawl];

async function main() {
  const config = readConfig(
    process.env,
    SECTIONS.map((section) => section.name),
  );
  ensureBuild();
  const startedAt = new Date();
  // Other work on the machine skews both Lighthouse's CPU-based estimates and req/s: record it.
  const loadAtStart = os.loadavg()[0] ?? 0;
  const stamp = timestamp(startedAt);
  const runDir = join(RESULTS_DIR, stamp);

  /** @type {string[]} */
  const lines = [];
  /** @type {import("./targets.js").Check[]} */
  const checks = [];
  /** @type {Record<string, unknown>} */
  const records = {};
  for (const section of SECTIONS.filter(({ name }) => config.sections.includes(name))) {
    const result = await section.run({ config, logDir: runDir });
    lines.push("", `### ${section.title}`, "", ...result.lines);
    checks.push(...result.checks);
    records[section.name] = result.record;
  }

  const revision = gitRevision();
  const environment = {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg()[0] ?? 0 },
  };
  const file = writeResults(stamp, {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    revision,
    environment,
    config,
    summary: { passed: checks.filter((check) => check.pass).length, failed: checks.filter((check) => !check.pass).length, checks },
    sections: records,
  });
  console.log(
    [
      "",
      `## Benchmark ${startedAt.toISOString()} (commit ${revision ?? "unknown"}, Node ${environment.node}, ${environment.cpus} CPUs, load ${loadAtStart.toFixed(1)}→${environment.loadAverage.atEnd.toFixed(1)})`,
      ...lines,
      "",
      `**${summaryLine(checks)}**`,
      "",
      `Results: ${file} (and ${join(RESULTS_DIR, "latest.json")}); server logs and Lighthouse's reports in ${runDir}/.`,
    ].join("\n"),
  );
}

try {
  await main();
} catch (error) {
  console.error(`\nbench: cannot run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

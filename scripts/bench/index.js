// @ts-check
// `npm run bench` (not part of `npm test`). Builds if there is no build, then runs each section of SECTIONS in turn, each against
// production servers of its own on free loopback ports; prints every figure, those with a target beside it with PASS or FAIL, and writes
// bench-results/<timestamp>.json and bench-results/latest.json (server logs and Lighthouse's reports in bench-results/<timestamp>/).
// It exits 0 whether targets pass or fail; non-zero only when it cannot run (no Chromium, the build or a server fails, or Lighthouse could
// measure nothing).
//
// Knobs, for quick runs (defaults: the full run):
//   BENCH_ONLY=calendar,…      run only these sections (names in SECTIONS), comma-separated; BENCH_SKIP=… skips them instead
//   BENCH_ROUTES=/,/events     Lighthouse routes, comma-separated (default: all eight, an events archive page among them)
//   BENCH_RUNS=1               Lighthouse runs per route, and navigation runs per trip; medians are reported (default 3)
//   BENCH_DURATION=3           seconds per serving load (default 10)
//   BENCH_CONNECTIONS=20       serving load client connections (default 50)
//   CHROME_PATH=/path/chrome   Chromium to use (default /usr/bin/chromium)
//   STATIC_ANCHOR_DIR=/path    the static anchor Lighthouse also measures (default ../shared/anchors/static-limit beside the checkout)
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import "./cleanup.js";
import { readConfig } from "./config.js";
import { section as calendar } from "./calendar.js";
import { section as calendarScale } from "./calendar-scale.js";
import { section as eventLists } from "./event-lists.js";
import { section as lighthouse } from "./lighthouse.js";
import { section as navigation } from "./navigation.js";
import { summaryLine } from "./report.js";
import { ensureBuild } from "./server.js";
import { section as serving } from "./serving.js";
import { section as shareCards } from "./share-cards.js";
import { section as shareCrawl } from "./share-crawl.js";

/** The sections, in the order they run. @type {import("./report.js").Section[]} */
const SECTIONS = [lighthouse, navigation, serving, calendar, calendarScale, eventLists, shareCards, shareCrawl];
const RESULTS_DIR = "bench-results";

/** The commit measured, marked "+dirty" when the worktree has changes; null outside git. */
function gitRevision() {
  const git = (/** @type {string[]} */ args) => spawnSync("git", args, { encoding: "utf8" });
  const head = git(["rev-parse", "--short", "HEAD"]);
  if (head.status !== 0) return null;
  return `${head.stdout.trim()}${git(["status", "--porcelain", "--untracked-files=no"]).stdout.trim() ? "+dirty" : ""}`;
}

async function main() {
  const config = readConfig(
    process.env,
    SECTIONS.map((section) => section.name),
  );
  ensureBuild();
  const startedAt = new Date();
  // Other work on the machine skews both Lighthouse's CPU-based estimates and req/s: record it.
  const loadAtStart = os.loadavg()[0] ?? 0;
  // A file-name-safe UTC timestamp, e.g. 2026-11-21T19-40-05Z.
  const stamp = startedAt
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/:/g, "-");
  const runDir = join(RESULTS_DIR, stamp);
  /** @type {string[]} */
  const lines = [];
  /** @type {import("./report.js").Check[]} */
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
    cpuModel: os.cpus()[0]?.model,
    load: [loadAtStart, os.loadavg()[0] ?? 0],
  };
  const passed = checks.filter((check) => check.pass).length;
  const summary = { passed, failed: checks.length - passed, checks };
  const json = `${JSON.stringify({ startedAt, finishedAt: new Date(), revision, environment, config, summary, sections: records }, null, 2)}\n`;
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${stamp}.json`);
  writeFileSync(file, json);
  writeFileSync(join(RESULTS_DIR, "latest.json"), json);
  const machine = `Node ${environment.node}, ${environment.cpus} CPUs, load ${environment.load.map((load) => load.toFixed(1)).join("→")}`;
  console.log(
    [
      "",
      `## Benchmark ${startedAt.toISOString()} (commit ${revision ?? "unknown"}, ${machine})`,
      ...lines,
      "",
      `**${summaryLine(checks)}**`,
      "",
      `Results: ${file} (and latest.json beside it); server logs and Lighthouse's reports in ${runDir}/.`,
    ].join("\n"),
  );
}

try {
  await main();
} catch (error) {
  console.error(`\nbench: cannot run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

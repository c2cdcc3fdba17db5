// @ts-check
// The JSON record of a run: bench-results/<timestamp>.json and a copy as latest.json. Full Lighthouse results and the server log sit next
// to it in bench-results/<timestamp>/.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const RESULTS_DIR = "bench-results";

/** A file-name-safe UTC timestamp, e.g. 2026-11-21T19-40-05Z. */
export function timestamp(date = new Date()) {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/:/g, "-");
}

/** The commit measured, marked "+dirty" when the worktree has changes; null outside git. */
export function gitRevision() {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" });
  if (head.status !== 0) return null;
  const status = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" });
  return `${head.stdout.trim()}${status.stdout.trim() ? "+dirty" : ""}`;
}

/** @param {string} stamp @param {unknown} record @returns {string} The timestamped file. */
export function writeResults(stamp, record) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const json = `${JSON.stringify(record, null, 2)}\n`;
  const file = join(RESULTS_DIR, `${stamp}.json`);
  writeFileSync(file, json);
  writeFileSync(join(RESULTS_DIR, "latest.json"), json);
  return file;
}

// @ts-check
/* global fetch -- Node 20 has it */
// Builds when needed, then starts and stops the production server (`node server.js`) on a free loopback port. Its output goes to a log
// file, not a pipe we must drain: the bench only talks to it over HTTP, and logging stays as cheap as it is in production.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { stopChildOnCleanup } from "./cleanup.js";
import { freePort, rawGet, until } from "./http.js";

const BUILD_ENTRY = "build/server/index.js";

/** Runs `npm run build` when there is no build yet (the same rule as `npm start`). */
export function ensureBuild() {
  if (existsSync(BUILD_ENTRY)) return;
  console.log(`bench: no ${BUILD_ENTRY}, building first (npm run build)…`);
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal}).`);
}

/**
 * Waits until `origin` answers at all (any status); throws if the process exits first.
 * @param {string} origin @param {import("node:child_process").ChildProcess} child @param {number} timeoutMs
 */
export async function answering(origin, child, timeoutMs) {
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const answers = () => rawGet(`${origin}/`, {}, 2_000).catch(() => exited() && Promise.reject(new Error("the process exited first")));
  await until(`${origin}/ answering`, answers, timeoutMs);
}

/** @typedef {{ origin: string, logFile: string, pid: number, stop: () => Promise<void> }} RunningServer logFile: its stdout and stderr. */

/** @param {{ logFile: string, env?: Record<string, string> }} options @returns {Promise<RunningServer>} */
export async function startProductionServer({ logFile, env = {} }) {
  const port = await freePort();
  mkdirSync(dirname(logFile), { recursive: true });
  const logFd = openSync(logFile, "w");
  const child = spawn(process.execPath, ["server.js"], {
    // Every benchmark request comes from loopback: the rate limits would answer most of them 429.
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      RATE_LIMIT_PER_MINUTE: "10000000",
      PAGE_RATE_LIMIT_PER_MINUTE: "10000000",
      SPECULATIVE_RATE_LIMIT_PER_MINUTE: "10000000",
      // No saved calendar copy in the working tree unless a measurement asks for one.
      EVENTS_SAVED_COPY_PATH: "off",
      ...env,
    },
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  // server.js closes gracefully on SIGTERM; do not wait for its 8 s grace period.
  const { stop } = stopChildOnCleanup(child, 3_000);
  const origin = `http://127.0.0.1:${port}`;
  try {
    await answering(origin, child, 30_000);
  } catch (error) {
    await stop();
    const tail = readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-20).join("\n");
    throw new Error(`the production server did not start: ${error instanceof Error ? error.message : error}\n--- ${logFile} ---\n${tail}`);
  }
  return { origin, logFile, stop, pid: child.pid ?? 0 };
}

/** The server's metrics (its listener, METRICS_PORT=0: its address is in the log), as text. @param {RunningServer} server */
export async function scrape(server) {
  const port = /Metrics for Prometheus at http:\/\/[^:]+:(\d+)/.exec(readFileSync(server.logFile, "utf8"))?.[1];
  if (!port) throw new Error(`no metrics listener in ${server.logFile}`);
  return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
}

/** The sum of a metric's samples whose labels include `labels`. @param {string} text @param {string} name @param {string} [labels] */
export const sumOf = (text, name, labels = "") =>
  text
    .split("\n")
    .filter((line) => (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);

/** Resident memory of a process, from /proc (bytes). @param {number} pid */
export const residentBytes = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024;

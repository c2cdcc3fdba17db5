// @ts-check
// Builds when needed, then starts and stops the production server (`node server.js`) on a free loopback port. Its output goes to a log
// file, not a pipe we must drain: the bench only talks to it over HTTP, and logging stays as cheap as it is in production.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { stopChildOnCleanup } from "./cleanup.js";
import { freePort, waitForHttp } from "./http.js";

const BUILD_ENTRY = "build/server/index.js";

/** Runs `npm run build` when there is no build yet (the same rule as `npm start`). */
export function ensureBuild() {
  if (existsSync(BUILD_ENTRY)) return;
  console.log(`bench: no ${BUILD_ENTRY}, building first (npm run build)…`);
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal}).`);
}

/**
 * @typedef {object} RunningServer
 * @property {string} origin e.g. http://127.0.0.1:41234
 * @property {string} logFile Where the server's stdout and stderr went.
 * @property {number} pid
 * @property {() => Promise<void>} stop
 */

/**
 * @param {{ logFile: string, env?: Record<string, string>, cwd?: string }} options `cwd`: another checkout's root, built.
 * @returns {Promise<RunningServer>}
 */
export async function startProductionServer({ logFile, env = {}, cwd }) {
  const port = await freePort();
  mkdirSync(dirname(logFile), { recursive: true });
  const logFd = openSync(logFile, "w");
  const child = spawn(process.execPath, ["server.js"], {
    cwd,
    // Every benchmark request comes from loopback: the rate limits would answer most of them 429.
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      RATE_LIMIT_PER_MINUTE: "10000000",
      PAGE_RATE_LIMIT_PER_MINUTE: "10000000",
      SPECULATIVE_RATE_LIMIT_PER_MINUTE: "10000000",
      // No calendar snapshot in the working tree unless a measurement asks for one.
      EVENTS_SNAPSHOT_PATH: "off",
      ...env,
    },
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  // server.js closes gracefully on SIGTERM; do not wait for its 8 s grace period.
  const { stop } = stopChildOnCleanup(child, 3_000);

  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${origin}/`, { timeoutMs: 30_000, isAlive: () => child.exitCode === null && child.signalCode === null });
  } catch (error) {
    await stop();
    const tail = readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-20).join("\n");
    throw new Error(
      `the production server did not start: ${error instanceof Error ? error.message : String(error)}\n--- ${logFile} (last lines) ---\n${tail}`,
    );
  }
  return { origin, logFile, stop, pid: child.pid ?? 0 };
}

// @ts-check
// The load client: wrk (Debian's package) when installed, which one core drives far past what one
// Node process can serve; else autocannon, which is slower, so the bench also measures a bare
// node:http server with the same client and says when the client, not the server, was the ceiling.
//
// A load targets one path, or a stream of paths made per request (random query strings, random
// unknown paths), so no two requests of a flood ask for the same URL.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// autocannon ships no types (tests/support/autocannon.d.ts declares some); the part used here is typed below.
import autocannonUntyped from "autocannon";
import { onCleanup } from "./cleanup.js";

/**
 * @typedef {"fixed" | "random-query" | "random-path"} Pattern
 * fixed: the path itself; random-query: the path plus ?r=<random>; random-path: /wp-<random>.php
 */

/**
 * @typedef {object} LoadFigures
 * @property {string} client "wrk" or "autocannon".
 * @property {number} requestsPerSecond
 * @property {number} requests Completed requests.
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} unexpectedStatus Answers whose status was not the expected one.
 * @property {number} errors Connection errors and timeouts.
 */

/** @returns {"wrk" | "autocannon"} */
export function loadClientName() {
  return spawnSync("wrk", ["--version"], { stdio: "ignore" }).error ? "autocannon" : "wrk";
}

// wrk counts answers outside 2xx/3xx as status errors; a 404 flood is told apart by `expect404`.
const WRK_SCRIPT = `
local pattern = os.getenv("BENCH_PATTERN")
local base = os.getenv("BENCH_PATH")
local counter = 0
wrk.headers["Accept-Encoding"] = "gzip, deflate, br, zstd"
wrk.headers["Accept"] = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36"
math.randomseed(os.time())
request = function()
  counter = counter + 1
  if pattern == "random-query" then
    local sep = string.find(base, "?", 1, true) and "&" or "?"
    return wrk.format("GET", base .. sep .. "r=" .. math.random(1, 1000000000) .. "-" .. counter)
  elseif pattern == "random-path" then
    return wrk.format("GET", "/wp-" .. math.random(1, 1000000000) .. "-" .. counter .. ".php")
  end
  return wrk.format("GET", base)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCH-JSON {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50":%f,"p99":%f}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
`;

/** @param {Pattern} pattern @param {string} path */
function pathMaker(pattern, path) {
  let counter = 0;
  return () => {
    counter += 1;
    const random = `${Math.floor(Math.random() * 1e9)}-${counter}`;
    if (pattern === "random-query") return `${path}${path.includes("?") ? "&" : "?"}r=${random}`;
    if (pattern === "random-path") return `/wp-${random}.php`;
    return path;
  };
}

/**
 * @param {object} options
 * @param {string} options.origin
 * @param {string} options.path
 * @param {Pattern} options.pattern
 * @param {number} options.connections
 * @param {number} options.durationSeconds
 * @param {boolean} [options.expect404] The flood's answers are 404s by design.
 * @returns {Promise<LoadFigures>}
 */
export async function runLoad({ origin, path, pattern, connections, durationSeconds, expect404 = false }) {
  return loadClientName() === "wrk"
    ? runWrk({ origin, path, pattern, connections, durationSeconds, expect404 })
    : runAutocannon({ origin, path, pattern, connections, durationSeconds, expect404 });
}

/** @param {Parameters<typeof runLoad>[0] & { expect404: boolean }} options @returns {Promise<LoadFigures>} */
async function runWrk({ origin, path, pattern, connections, durationSeconds, expect404 }) {
  const dir = mkdtempSync(join(tmpdir(), "bench-wrk-"));
  const script = join(dir, "load.lua");
  writeFileSync(script, WRK_SCRIPT);
  try {
    const child = spawn("wrk", ["-t1", `-c${connections}`, `-d${durationSeconds}s`, "--timeout", "5s", "-s", script, `${origin}${path}`], {
      env: { ...process.env, BENCH_PATTERN: pattern, BENCH_PATH: path },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const stop = onCleanup(() => void child.kill("SIGKILL"));
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    await stop();
    const line = /BENCH-JSON (\{.*\})/.exec(out)?.[1];
    if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${out}`);
    const r = JSON.parse(line);
    return {
      client: "wrk",
      requestsPerSecond: Math.round(r.requests / (r.durationUs / 1e6)),
      requests: r.requests,
      p50Ms: Math.round(r.p50 * 10) / 10,
      p99Ms: Math.round(r.p99 * 10) / 10,
      // Every answer of a 404 flood is a wrk "status error"; any other status there cannot be told apart.
      unexpectedStatus: expect404 ? r.requests - r.status : r.status,
      errors: r.connect + r.read + r.write + r.timeout,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * @typedef {object} AutocannonResult
 * @property {{ average: number, total: number }} requests
 * @property {{ p50: number, p99: number }} latency
 * @property {number} errors
 * @property {number} timeouts
 * @property {Record<string, { count: number }>} statusCodeStats
 */
const autocannon = /** @type {(options: object) => Promise<AutocannonResult>} */ (/** @type {unknown} */ (autocannonUntyped));

/** @param {Parameters<typeof runLoad>[0] & { expect404: boolean }} options @returns {Promise<LoadFigures>} */
async function runAutocannon({ origin, path, pattern, connections, durationSeconds, expect404 }) {
  const next = pathMaker(pattern, path);
  const result = await autocannon({
    url: `${origin}${path}`,
    connections,
    duration: durationSeconds,
    headers: { "accept-encoding": "gzip, deflate, br, zstd", accept: "text/html,*/*;q=0.8" },
    requests: [{ setupRequest: (/** @type {Record<string, unknown>} */ request) => ({ ...request, path: next() }) }],
  });
  const expected = expect404 ? "404" : "200";
  const total = Object.values(result.statusCodeStats ?? {}).reduce((sum, { count }) => sum + Number(count), 0);
  return {
    client: "autocannon",
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    unexpectedStatus: total - Number(result.statusCodeStats?.[expected]?.count ?? 0),
    errors: result.errors + result.timeouts,
  };
}

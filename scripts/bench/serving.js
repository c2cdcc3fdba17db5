// @ts-check
// Serving throughput: autocannon against the production server and against a bare node:http
// server (bare-server.js) replaying the very responses production gave, one target at a time
// (the machine has 2 cores: one for the server under test, one for autocannon).
//
// Like for like: both get the same request headers, those of a desktop Chromium navigation
// (including `Accept-Encoding: gzip, deflate, br, zstd`), so whatever encoding production
// picks, the bare server sends those same encoded bytes. The bare server replays status,
// status text and every header in order, except the hop-by-hop ones (Connection, Keep-Alive,
// Transfer-Encoding, which Node's HTTP layer sets itself the same way) and Date (sent fresh).
// A chunked production body is replayed chunked (as one chunk), a sized one with its length.
import { fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
// autocannon ships no types (tests/support/autocannon.d.ts declares some); the part used here is typed below.
import autocannonUntyped from "autocannon";
import { stopChildOnCleanup } from "./cleanup.js";
import { rawGet } from "./http.js";

/**
 * @typedef {object} Histogram
 * @property {number} average
 * @property {number} p99
 * @property {number} total
 */
/**
 * @typedef {object} AutocannonResult
 * @property {Histogram} requests Requests per second samples (total: completed requests).
 * @property {Histogram} latency Milliseconds.
 * @property {Histogram} throughput Bytes per second samples (total: bytes).
 * @property {number} errors
 * @property {number} timeouts
 * @property {number} non2xx
 * @property {Record<string, { count: number }>} statusCodeStats
 * @property {number} duration Seconds.
 */
const autocannon =
  /** @type {(options: { url: string, connections: number, duration: number, headers: Record<string, string>, timeout?: number }) => Promise<AutocannonResult>} */ (
    /** @type {unknown} */ (autocannonUntyped)
  );

const CHROMIUM_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36";

/** @param {string} path */
export function requestHeaders(path) {
  return {
    accept: path.startsWith("/api/") ? "application/json" : "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "accept-encoding": "gzip, deflate, br, zstd",
    "accept-language": "en-US,en;q=0.9",
    "user-agent": CHROMIUM_UA,
  };
}

/** Headers Node's HTTP layer writes itself; everything else is replayed verbatim. */
const NOT_REPLAYED = new Set(["connection", "keep-alive", "transfer-encoding", "date"]);

/**
 * @typedef {object} LoadFigures
 * @property {number} requestsPerSecond Mean of autocannon's per-second samples.
 * @property {number} p99Ms Latency 99th percentile.
 * @property {number} p50Ms
 * @property {number} requests Completed requests.
 * @property {number} bytesPerResponse Mean bytes received per response (headers included).
 * @property {number} non2xx
 * @property {number} errors Connection errors and timeouts.
 * @property {Record<string, number>} statusCodes
 */

/**
 * @typedef {object} ServingResult
 * @property {string} path
 * @property {{ status: number, bodyBytes: number, contentEncoding: string | null, headers: string[] }} captured
 * @property {LoadFigures} production
 * @property {LoadFigures} bare
 * @property {number} ratio production / bare requests per second.
 */

/** @param {AutocannonResult} result @returns {LoadFigures} */
function loadFigures(result) {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    p50Ms: /** @type {{ p50?: number }} */ (result.latency).p50 ?? 0,
    requests: result.requests.total,
    bytesPerResponse: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)])),
  };
}

/**
 * Starts bare-server.js with the responses to replay.
 * @param {Array<import("./bare-server.js").Replay>} replays
 */
async function startBareServer(replays) {
  const child = fork(fileURLToPath(new URL("./bare-server.js", import.meta.url)), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { exited, stop } = stopChildOnCleanup(child, 3_000);
  child.send({ replays });
  const [message] = await Promise.race([
    once(child, "message"),
    exited.then(() => {
      throw new Error("the bare server exited before listening");
    }),
  ]);
  const port = /** @type {{ port: number }} */ (message).port;
  return { origin: `http://127.0.0.1:${port}`, stop };
}

/**
 * @param {object} options
 * @param {string} options.origin The production server.
 * @param {string[]} options.paths
 * @param {number} options.connections
 * @param {number} options.durationSeconds
 * @returns {Promise<ServingResult[]>}
 */
export async function runServing({ origin, paths, connections, durationSeconds }) {
  /** @type {Array<import("./bare-server.js").Replay>} */
  const replays = [];
  for (const path of paths) {
    // The first request warms production's caches (rendered pages, calendar read); the second is what we replay.
    await rawGet(`${origin}${path}`, requestHeaders(path));
    const response = await rawGet(`${origin}${path}`, requestHeaders(path));
    /** @type {string[]} */
    const headers = [];
    let chunked = false;
    for (let index = 0; index < response.rawHeaders.length; index += 2) {
      const name = /** @type {string} */ (response.rawHeaders[index]);
      const value = /** @type {string} */ (response.rawHeaders[index + 1]);
      if (name.toLowerCase() === "transfer-encoding" && /chunked/i.test(value)) chunked = true;
      if (!NOT_REPLAYED.has(name.toLowerCase())) headers.push(name, value);
    }
    replays.push({ path, status: response.status, statusMessage: response.statusMessage, headers, chunked, bodyBase64: response.body.toString("base64") });
  }

  const bare = await startBareServer(replays);
  try {
    /** @type {ServingResult[]} */
    const results = [];
    for (const replay of replays) {
      const { path } = replay;
      /** @param {string} target */
      const load = async (target) =>
        loadFigures(await autocannon({ url: `${target}${path}`, connections, duration: durationSeconds, headers: requestHeaders(path) }));
      const production = await load(origin);
      const baseline = await load(bare.origin);
      const ratio = baseline.requestsPerSecond > 0 ? production.requestsPerSecond / baseline.requestsPerSecond : 0;
      const encodingIndex = replay.headers.findIndex((name, index) => index % 2 === 0 && name.toLowerCase() === "content-encoding");
      results.push({
        path,
        captured: {
          status: replay.status,
          bodyBytes: Buffer.from(replay.bodyBase64, "base64").length,
          contentEncoding: encodingIndex >= 0 ? (replay.headers[encodingIndex + 1] ?? null) : null,
          headers: replay.headers.filter((_, index) => index % 2 === 0),
        },
        production,
        bare: baseline,
        ratio,
      });
      console.log(
        `serving ${path}: production ${production.requestsPerSecond} req/s (p99 ${production.p99Ms} ms), ` +
          `bare ${baseline.requestsPerSecond} req/s (p99 ${baseline.p99Ms} ms), ratio ${ratio.toFixed(2)}`,
      );
    }
    return results;
  } finally {
    await bare.stop();
  }
}

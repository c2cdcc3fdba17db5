// @ts-check
// How the production server holds up: cached `/`, junk floods (random query strings on `/` and `/events`, random unknown paths), real
// visitors' page loads while a flood runs, the server's memory across the floods, and the caching headers of `/`. One load at a time: the
// machine has 2 cores, one for the server under test and one for the load client.
import http from "node:http";
import { performance } from "node:perf_hooks";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { join } from "node:path";
import { rawGet } from "./http.js";
import { servingTable } from "./report.js";
import { startProductionServer } from "./server.js";
import { percentile } from "./stats.js";
import { servingChecks } from "./targets.js";

/**
 * Pattern: fixed, the path itself; random-query, the path plus ?r=<random>; random-path, /wp-<random>.php. A load's figures:
 * unexpectedStatus counts answers without the expected status, errors connection errors and timeouts.
 * @typedef {"fixed" | "random-query" | "random-path"} Pattern
 * @typedef {{ requestsPerSecond: number, requests: number, p50Ms: number, p99Ms: number, unexpectedStatus: number, errors: number }} LoadFigures
 * @typedef {{ name: string, path: string, pattern: Pattern, expect404: boolean }} Flood
 */

/** @type {Flood[]} */
export const FLOODS = [
  { name: "random queries on /", path: "/", pattern: "random-query", expect404: false },
  { name: "random queries on /events", path: "/events", pattern: "random-query", expect404: false },
  { name: "random unknown paths (404)", path: "/", pattern: "random-path", expect404: true },
];

/**
 * cached: production's cached `/`; visitors: page loads during a flood (notOk: their requests not answered 200); caching: `/` twice the
 * same bytes, its ETag and the status of a GET with If-None-Match.
 * @typedef {{ cached: LoadFigures, floods: Array<Flood & { figures: LoadFigures, ratio: number }>,
 *   visitors: { loads: number, p50Ms: number, p95Ms: number, maxMs: number, notOk: number, during: string },
 *   memory: { beforeMb: number, afterMb: number, growthMb: number },
 *   caching: { sameBytes: boolean, etag: string | null, conditionalStatus: number, cacheControl: string | null, vary: string | null } }} ServingResult
 */

const BROWSER_HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br, zstd",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36",
};

/**
 * One autocannon load on one path, or on a new URL per request (random query strings, random unknown paths), so no two requests of a flood
 * ask for the same URL.
 * @param {{ origin: string, path: string, pattern: Pattern, expect404?: boolean, connections: number, durationSeconds: number }} options
 * @returns {Promise<LoadFigures>}
 */
async function load({ origin, path, pattern, expect404 = false, connections, durationSeconds }) {
  let counter = 0;
  const next = () => {
    const random = `${Math.floor(Math.random() * 1e9)}-${(counter += 1)}`;
    if (pattern === "random-query") return `${path}${path.includes("?") ? "&" : "?"}r=${random}`;
    return pattern === "random-path" ? `/wp-${random}.php` : path;
  };
  const result = await autocannon({
    url: `${origin}${path}`,
    connections,
    duration: durationSeconds,
    headers: BROWSER_HEADERS,
    requests: [{ setupRequest: (request) => ({ ...request, path: next() }) }],
  });
  const answered = Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + count, 0);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    unexpectedStatus: answered - (result.statusCodeStats[expect404 ? "404" : "200"]?.count ?? 0),
    errors: result.errors + result.timeouts,
  };
}

/** Resident memory of a process, in MB (Linux). @param {number} pid */
function rssMb(pid) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

/** The files a browser fetches for a page: its stylesheet and icon (scripts wait for an interaction). @param {string} html */
function subresources(html) {
  return [...html.matchAll(/<link rel="(?:stylesheet|icon)" href="(\/[^"]+)"/g)].map((match) => /** @type {string} */ (match[1]));
}

/**
 * Page loads as new visitors' browsers make them, one after another: a fresh connection for the document, then its stylesheet and icon
 * together, reusing it and opening a second (HTTP/1.1 keep-alive, as browsers do).
 * @param {string} origin
 * @param {number} durationMs
 */
async function visitorLoads(origin, durationMs) {
  const pages = ["/", "/events", "/about", "/apply"];
  /** @type {number[]} */
  const times = [];
  let notOk = 0;
  const deadline = Date.now() + durationMs;
  while (Date.now() < deadline) {
    const path = pages[times.length % pages.length] ?? "/";
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    const started = performance.now();
    const page = await rawGet(`${origin}${path}`, BROWSER_HEADERS, 10_000, agent);
    const { gunzipSync, brotliDecompressSync } = await import("node:zlib");
    const encoding = page.rawHeaders.find((_, index, all) => index % 2 === 1 && all[index - 1]?.toLowerCase() === "content-encoding");
    const html = (encoding === "br" ? brotliDecompressSync(page.body) : encoding === "gzip" ? gunzipSync(page.body) : page.body).toString();
    const files = await Promise.all(subresources(html).map((file) => rawGet(`${origin}${file}`, BROWSER_HEADERS, 10_000, agent)));
    times.push(performance.now() - started);
    agent.destroy();
    notOk += [page, ...files].filter((answer) => answer.status !== 200).length;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const at = (/** @type {number} */ p) => Math.round(percentile(times, p) * 10) / 10;
  return { loads: times.length, p50Ms: at(50), p95Ms: at(95), maxMs: at(100), notOk };
}

/** @param {string} origin @returns {Promise<ServingResult["caching"]>} */
async function caching(origin) {
  const first = await rawGet(`${origin}/`, BROWSER_HEADERS);
  const second = await rawGet(`${origin}/`, BROWSER_HEADERS);
  /** @param {import("./http.js").RawResponse} answer @param {string} name */
  const header = (answer, name) =>
    answer.rawHeaders.find((_, index, all) => index % 2 === 1 && all[index - 1]?.toLowerCase() === name) ?? null;
  const etag = header(first, "etag");
  const conditional = await rawGet(`${origin}/`, { ...BROWSER_HEADERS, "if-none-match": etag ?? '"none"' });
  return {
    sameBytes: first.body.equals(second.body) && first.status === 200,
    etag,
    conditionalStatus: conditional.status,
    cacheControl: header(first, "cache-control"),
    vary: header(first, "vary"),
  };
}

/**
 * @param {object} options
 * @param {string} options.origin The production server.
 * @param {number} options.pid Its process id (for its memory).
 * @param {number} options.connections
 * @param {number} options.durationSeconds
 * @returns {Promise<ServingResult>}
 */
export async function runServing({ origin, pid, connections, durationSeconds }) {
  console.log(`serving: autocannon, ${connections} connections, ${durationSeconds} s per load`);
  const options = { connections, durationSeconds };

  // Warm: the first /events read loads the calendar.
  await rawGet(`${origin}/events`, BROWSER_HEADERS);
  // One short round of every load first: the runtime compiles its hot code and grows its heap to a load once (V8 sizes its young generation
  // to the allocation rate), so cached / and the floods are measured alike, and what grows again over the measured floods is kept.
  for (const warmUp of [{ path: "/", pattern: /** @type {const} */ ("fixed"), expect404: false }, ...FLOODS]) {
    await load({ ...warmUp, origin, connections, durationSeconds: Math.min(3, durationSeconds) });
  }
  const cached = await load({ ...options, origin, path: "/", pattern: "fixed" });
  console.log(`serving: cached / ${cached.requestsPerSecond} req/s (p99 ${cached.p99Ms} ms)`);
  const beforeMb = rssMb(pid);
  const floods = [];
  for (const flood of FLOODS) {
    const figures = await load({ ...options, ...flood, origin });
    const ratio = cached.requestsPerSecond > 0 ? figures.requestsPerSecond / cached.requestsPerSecond : 0;
    floods.push({ ...flood, figures, ratio });
    console.log(
      `serving: flood ${flood.name}: ${figures.requestsPerSecond} req/s (${ratio.toFixed(2)}× cached /), p99 ${figures.p99Ms} ms`,
    );
  }

  // Real visitors while the junk-query flood on / runs (the one that once pushed pages out of the cache).
  const during = FLOODS[0] ?? { name: "", path: "/", pattern: /** @type {const} */ ("random-query"), expect404: false };
  const flood = load({ ...options, ...during, origin });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const loads = await visitorLoads(origin, Math.max(1_000, durationSeconds * 1000 - 2_000));
  await flood;
  const visitors = { ...loads, during: during.name };
  console.log(`serving: visitors during "${during.name}": ${loads.loads} page loads, p95 ${loads.p95Ms} ms, ${loads.notOk} not 200`);
  const afterMb = rssMb(pid);

  return {
    cached,
    floods,
    visitors,
    memory: { beforeMb, afterMb, growthMb: Math.round((afterMb - beforeMb) * 10) / 10 },
    caching: await caching(origin),
  };
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "serving",
  title: "Serving",
  async run({ config, logDir }) {
    const server = await startProductionServer({ logFile: join(logDir, "serving-server.log") });
    console.log(`serving: production server at ${server.origin} (log: ${server.logFile})`);
    /** @type {ServingResult} */
    let serving;
    try {
      serving = await runServing({ ...config, origin: server.origin, pid: server.pid });
    } finally {
      await server.stop();
    }
    return {
      lines: [
        servingTable(serving),
        "",
        `autocannon, ${config.connections} connections for ${config.durationSeconds} s per load, one load at a time. ` +
          "Floods send a new URL with every request. Visitors: page loads (document, then stylesheet and icon) one after another while the flood on / runs.",
      ],
      checks: servingChecks(serving),
      record: serving,
    };
  },
};

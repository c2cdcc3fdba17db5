// @ts-check
// How the production server holds up (issue 10): cached `/`, junk floods (random query strings on `/` and `/events`, random unknown paths),
// real visitors' page loads while a flood runs, the server's memory across the floods, and the caching headers of `/`. One load at a time:
// the machine has 2 cores, one for the server under test and one for the load client. Alone: `BENCH_ONLY=serving npm run bench`.
import http from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import autocannon from "autocannon";
import { headerOf, rawGet } from "./http.js";
import { checksOf, checksTable, table } from "./report.js";
import { residentBytes, startProductionServer } from "./server.js";
import { percentile } from "./stats.js";

/** Each junk flood is served at least this share of the same server's rate on cached `/`. */
const FLOOD_RATIO = 0.5;
/** Real visitors' page loads during a flood. */
const VISITOR_P95_MS = 100;
/** Server memory growth over the floods. */
const MEMORY_GROWTH_MB = 50;

/** @typedef {"fixed" | "random-query" | "random-path"} Pattern fixed: the path; random-query: it plus ?r=<random>; random-path: /wp-<random>.php. */
/** @typedef {{ name: string, path: string, pattern: Pattern, expect404?: boolean }} Load */

/** @type {Load[]} */
const FLOODS = [
  { name: "random queries on /", path: "/", pattern: "random-query" },
  { name: "random queries on /events", path: "/events", pattern: "random-query" },
  { name: "random unknown paths (404)", path: "/", pattern: "random-path", expect404: true },
];

const BROWSER_HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br, zstd",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36",
};

/**
 * One autocannon load, on one path or a new URL per request (no two requests of a flood ask for the same URL). unexpected: answers without
 * the expected status, plus connection errors and timeouts.
 * @param {string} origin @param {Load} load @param {{ connections: number, durationSeconds: number }} options
 */
async function run(origin, { path, pattern, expect404 = false }, { connections, durationSeconds }) {
  let counter = 0;
  const next = () => {
    const random = `${Math.floor(Math.random() * 1e9)}-${(counter += 1)}`;
    if (pattern === "random-query") return `${path}?r=${random}`;
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
  const expected = result.statusCodeStats[expect404 ? "404" : "200"]?.count ?? 0;
  const { average: perSecond } = result.requests;
  return {
    perSecond: Math.round(perSecond),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    unexpected: answered - expected + result.errors + result.timeouts,
  };
}

/**
 * Page loads as new visitors' browsers make them, one after another: a fresh connection for the document, then its stylesheet and icon
 * together, reusing it and opening a second (HTTP/1.1 keep-alive, as browsers do). Scripts wait for an interaction.
 * @param {string} origin @param {number} durationMs
 */
async function visitorLoads(origin, durationMs) {
  const pages = ["/", "/events", "/about", "/apply"];
  /** @type {number[]} */
  const times = [];
  let notOk = 0;
  for (const deadline = Date.now() + durationMs; Date.now() < deadline; await sleep(50)) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    const started = performance.now();
    const page = await rawGet(`${origin}${pages[times.length % pages.length]}`, BROWSER_HEADERS, 10_000, agent);
    const encoding = headerOf(page, "content-encoding");
    const html = (encoding === "br" ? brotliDecompressSync(page.body) : encoding === "gzip" ? gunzipSync(page.body) : page.body).toString();
    const links = [...html.matchAll(/<link rel="(?:stylesheet|icon)" href="(\/[^"]+)"/g)];
    const files = await Promise.all(links.map(([, file]) => rawGet(`${origin}${file}`, BROWSER_HEADERS, 10_000, agent)));
    times.push(performance.now() - started);
    agent.destroy();
    notOk += [page, ...files].filter((answer) => answer.status !== 200).length;
  }
  return { loads: times.length, p95Ms: Math.round(percentile(times, 95) * 10) / 10, notOk };
}

/** `/` twice the same bytes, its ETag, and the status of a GET with If-None-Match. @param {string} origin */
async function caching(origin) {
  const [first, second] = [await rawGet(`${origin}/`, BROWSER_HEADERS), await rawGet(`${origin}/`, BROWSER_HEADERS)];
  const etag = headerOf(first, "etag");
  const conditional = await rawGet(`${origin}/`, { ...BROWSER_HEADERS, "if-none-match": etag ?? '"none"' });
  const sameBytes = first.status === 200 && first.body.equals(second.body);
  return { sameBytes, etag, conditionalStatus: conditional.status, cacheControl: headerOf(first, "cache-control") ?? "" };
}

/** @param {import("./server.js").RunningServer} server @param {{ connections: number, durationSeconds: number }} options */
async function measure(server, options) {
  const { origin } = server;
  await rawGet(`${origin}/events`, BROWSER_HEADERS);
  // One short round of every load first: the runtime compiles its hot code and grows its heap to a load once (V8 sizes its young generation
  // to the allocation rate), so cached / and the floods are measured alike, and what grows again over the measured floods is kept.
  const home = { name: "production, cached /", path: "/", pattern: /** @type {const} */ ("fixed") };
  for (const load of [home, ...FLOODS]) await run(origin, load, { ...options, durationSeconds: Math.min(3, options.durationSeconds) });
  const cached = await run(origin, home, options);
  const before = residentBytes(server.pid);
  const floods = [];
  for (const flood of FLOODS) {
    const figures = await run(origin, flood, options);
    floods.push({ ...flood, ...figures, ratio: cached.perSecond > 0 ? figures.perSecond / cached.perSecond : 0 });
    console.log(`serving: ${flood.name}: ${figures.perSecond} req/s against ${cached.perSecond} on cached /`);
  }
  // Real visitors while the junk-query flood on / runs (the one that once pushed pages out of the cache).
  const flood = run(origin, FLOODS[0] ?? home, options);
  await sleep(1_000);
  const visitors = await visitorLoads(origin, Math.max(1_000, options.durationSeconds * 1000 - 2_000));
  await flood;
  const growthMb = (residentBytes(server.pid) - before) / 1_048_576;
  return { cached: { ...home, ...cached }, floods, visitors, growthMb, caching: await caching(origin) };
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "serving",
  title: "Serving",
  async run({ config, logDir }) {
    const server = await startProductionServer({ logFile: join(logDir, "serving-server.log") });
    const result = await measure(server, config).finally(() => server.stop());
    const { cached, floods, visitors, growthMb, caching: c } = result;
    /** @type {import("./report.js").Check[]} */
    const checks = [];
    for (const f of floods) {
      const shown = `${f.ratio.toFixed(f.ratio < 0.1 ? 3 : 2)} (${f.perSecond} req/s, ${f.unexpected} unexpected or failed)`;
      const target = `≥ ${FLOOD_RATIO}, every answer ${f.expect404 ? "404" : "200"}`;
      checksOf(f.name, checks)("req/s ÷ cached / req/s", shown, target, f.ratio >= FLOOD_RATIO && f.unexpected === 0);
    }
    const loads = `${visitors.p95Ms} ms (${visitors.loads} loads, ${visitors.notOk} not 200)`;
    const during = `visitors during ${FLOODS[0]?.name}`;
    checksOf(during, checks)(
      "page load p95",
      loads,
      `< ${VISITOR_P95_MS} ms, all 200`,
      visitors.loads > 0 && visitors.p95Ms < VISITOR_P95_MS && visitors.notOk === 0,
    );
    checksOf("server", checks)(
      "memory growth over the floods",
      `${growthMb.toFixed(1)} MB`,
      `< ${MEMORY_GROWTH_MB} MB`,
      growthMb < MEMORY_GROWTH_MB,
    );
    const shared = /\bpublic\b/.test(c.cacheControl) && /\bs-maxage=\d+/.test(c.cacheControl) && !/no-store|private/.test(c.cacheControl);
    const shown = `${c.sameBytes ? "same bytes" : "different bytes"}, ${c.etag ?? "no ETag"} → ${c.conditionalStatus}, ${c.cacheControl}`;
    const cacheable = c.sameBytes && c.etag !== null && c.conditionalStatus === 304 && shared;
    checksOf("/", checks)("twice the same bytes; ETag → 304; shared-cacheable", shown, "same, 304, public with s-maxage", cacheable);
    const rows = [cached, ...floods].map((l) => [l.name, l.perSecond, `${l.p50Ms} ms`, `${l.p99Ms} ms`, l.unexpected]);
    const note =
      `autocannon, ${config.connections} connections for ${config.durationSeconds} s per load, one load at a time; floods send a new URL with ` +
      "every request. Visitors: page loads (document, then stylesheet and icon) one after another while the flood on / runs.";
    return {
      lines: [table(["Load", "req/s", "p50", "p99", "unexpected or failed"], rows), "", note, "", checksTable(checks)],
      checks,
      record: result,
    };
  },
};

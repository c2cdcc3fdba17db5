// A bounded load test: 20,000 requests over 100 connections, against the built production server on loopback,
// over a mix of a page, the events page, the events API, an asset and a 404. No connection errors or
// timeouts; nothing but 2xx, apart from the 404 of the missing page; the server's resident memory
// grows by less than 50 MB. Prints its figures. The server's memory over longer floods, and how fast
// it answers, are the bench's (npm run bench: scripts/bench/serving.js).
import { readdirSync } from "node:fs";
import autocannon, { type Request } from "autocannon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { megabytes, residentBytes } from "../support/process";
import { NO_SOURCE } from "../support/environments";
import { startServer, type RunningServer } from "../support/start-server";

const CONNECTIONS = 100;
// Counts, not seconds: every machine does the same work, a fast one sooner (about 6 s at this machine's 3,500
// requests a second). 20,000 requests would show a leak of 2.5 KB a request against the 50 MB bound.
const REQUESTS = 20_000;
const WARM_UP_REQUESTS = 3_000;
// autocannon counts an answer slower than this (seconds) as a timeout error.
const TIMEOUT_S = 10;
const MAX_GROWTH_BYTES = 50 * 1024 * 1024;

const asset = readdirSync("build/client/assets").find((name) => name.endsWith(".css"));
/** Each route with the statuses it may answer under load. */
const ROUTES: Array<{ path: string; allowed: number[] }> = [
  { path: "/", allowed: [200] },
  { path: "/events", allowed: [200] },
  // The test server's rate limits are lifted (tests/support/start-server.ts): no 429 here (rate-limit.test.ts has them).
  { path: "/api/calendar/events", allowed: [200] },
  { path: `/assets/${asset}`, allowed: [200] },
  { path: "/load-test-no-such-page", allowed: [404] },
];

type Counts = Map<string, Map<number, number>>;

/** The mix, counting every answer by route and status. */
function mix(counts: Counts): Request[] {
  return ROUTES.map(({ path }) => ({
    method: "GET",
    path,
    onResponse: (status) => {
      const byStatus = counts.get(path) ?? new Map<number, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      counts.set(path, byStatus);
    },
  }));
}

describe("load", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(NO_SOURCE);
  });
  afterAll(() => server?.stop());

  it(`${REQUESTS} requests over ${CONNECTIONS} connections: no errors, only the expected statuses, memory growth under 50 MB`, async () => {
    expect(asset).toBeDefined();

    // A fresh process loads its page code on first use: one request per route first, then a warm-up at
    // full concurrency, so that "before" is the working set of a busy server (its figures are not judged).
    for (const { path } of ROUTES) await fetch(`${server.url}${path}`).then((response) => response.arrayBuffer());
    const warmUp = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      amount: WARM_UP_REQUESTS,
      timeout: TIMEOUT_S,
      requests: mix(new Map()),
    });
    console.log(`[load] warm-up: ${warmUp.duration} s, ${warmUp.requests.total} requests, errors ${warmUp.errors}`);
    const before = residentBytes(server.pid);

    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(server.pid))), 250);
    const counts: Counts = new Map();
    let result;
    try {
      result = await autocannon({
        url: server.url,
        connections: CONNECTIONS,
        amount: REQUESTS,
        timeout: TIMEOUT_S,
        requests: mix(counts),
      });
    } finally {
      clearInterval(sampler);
    }
    const after = residentBytes(server.pid);
    peak = Math.max(peak, after);

    const byRoute = ROUTES.map(({ path }) => {
      const statuses = [...(counts.get(path) ?? new Map<number, number>())].sort(([a], [b]) => a - b);
      return `  ${path}: ${statuses.map(([status, n]) => `${status} ×${n}`).join(", ") || "no answers"}`;
    });
    console.log(
      [
        `[load] ${CONNECTIONS} connections, ${result.duration} s, ${result.requests.total} requests: ${result.requests.average.toFixed(0)} req/s on average`,
        `[load] latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
        `[load] errors ${result.errors}, timeouts ${result.timeouts}; statuses: ${JSON.stringify(Object.fromEntries(Object.entries(result.statusCodeStats).map(([s, { count }]) => [s, count])))}`,
        "[load] by route:",
        ...byRoute,
        `[load] server RSS before ${megabytes(before)} MB, after ${megabytes(after)} MB, peak ${megabytes(peak)} MB (growth ${megabytes(after - before)} MB)`,
      ].join("\n"),
    );

    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    // Every request was answered (each counted once, by its route and status).
    const answered = [...counts.values()].flatMap((byStatus) => [...byStatus.values()]).reduce((x, y) => x + y, 0);
    expect(answered).toBe(REQUESTS);
    for (const { path, allowed } of ROUTES) {
      const statuses = counts.get(path) ?? new Map<number, number>();
      expect(
        [...statuses.values()].reduce((a, b) => a + b, 0),
        `answers on ${path}`,
      ).toBeGreaterThan(0);
      const unexpected = [...statuses.keys()].filter((status) => !allowed.includes(status));
      expect(unexpected, `statuses on ${path} other than ${allowed.join("/")}`).toEqual([]);
    }
    expect(after - before, `RSS grew from ${megabytes(before)} MB to ${megabytes(after)} MB`).toBeLessThan(MAX_GROWTH_BYTES);
    expect(server.alive()).toBe(true);
  });
});

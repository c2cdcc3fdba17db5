// Every route is limited per client address: the events JSON API at RATE_LIMIT_PER_MINUTE, pages,
// files and downloads at PAGE_RATE_LIMIT_PER_MINUTE; probes never. X-Forwarded-For decides the
// address only behind a trusted proxy (TRUST_PROXY).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sample, scrape } from "../support/metrics";
import { rawRequest } from "../support/raw-http";
import { NO_SOURCE_NO_PROXY } from "../support/environments";
import { startServer, type RunningServer } from "../support/start-server";

const LIMIT = 4;

function expectRefused(answer: Awaited<ReturnType<typeof rawRequest>>, json: boolean) {
  expect(answer.status).toBe(429);
  expect(answer.headers["content-type"]).toMatch(json ? /^application\/json/ : /^text\/plain/);
  expect(answer.headers["cache-control"]).toBe("no-store");
  const retryAfter = Number(answer.headers["retry-after"]);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const message = `Too many requests; try again in ${retryAfter} seconds.`;
  if (json) expect(JSON.parse(answer.body)).toEqual({ error: message });
  else expect(answer.body).toBe(`${message}\n`);
  // Security headers and the request id are there too.
  expect(answer.headers["content-security-policy"]).toContain("default-src 'self'");
  expect(answer.headers["x-request-id"]).toBeDefined();
}

describe("rate limits, no trusted proxy", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      ...NO_SOURCE_NO_PROXY,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      PAGE_RATE_LIMIT_PER_MINUTE: String(LIMIT * 3),
    });
  });
  afterAll(() => server?.stop());

  it(`answers ${LIMIT} API requests a minute, then 429 JSON with Retry-After; no per-client headers before that`, async () => {
    for (let i = 0; i < LIMIT; i++) {
      const answer = await rawRequest(server.url, "/api/calendar/events");
      expect(answer.status, `request ${i + 1}`).toBe(200);
      // Stored answers are the same bytes for everyone (and for a CDN): no remaining-count headers.
      expect(answer.headers.ratelimit).toBeUndefined();
      expect(answer.headers["ratelimit-policy"]).toBeUndefined();
    }
    expectRefused(await rawRequest(server.url, "/api/calendar/events"), true);
    // Pages have their own, larger allowance.
    expect((await rawRequest(server.url, "/about")).status).toBe(200);
  });

  it(`limits pages, files and downloads together at their own limit (${LIMIT * 3}), never the probes`, async () => {
    const targets = ["/about", "/favicon.svg", "/api/calendar/feed.ics", "/no-such-page"];
    // One page was asked for above.
    let answered = 1;
    while (answered < LIMIT * 3) {
      const target = targets[answered % targets.length] as string;
      expect((await rawRequest(server.url, target)).status, target).not.toBe(429);
      answered += 1;
    }
    expectRefused(await rawRequest(server.url, "/"), false);
    expectRefused(await rawRequest(server.url, "/api/calendar/feed.ics"), true);
    for (let i = 0; i < LIMIT * 3; i++) {
      for (const probe of ["/healthz", "/readyz"]) expect((await rawRequest(server.url, probe)).status).toBe(200);
    }
  });

  it("does not believe X-Forwarded-For: a forged address is still the same client", async () => {
    const answer = await rawRequest(server.url, "/api/calendar/events", { headers: { "X-Forwarded-For": "203.0.113.9" } });
    expect(answer.status).toBe(429);
  });
});

// Behind a trusted proxy each forwarded address is a client of its own: one server for the tests
// below, each test another client.
describe("behind a trusted proxy (TRUST_PROXY=loopback)", () => {
  const API = 2;
  const PAGES = 5;
  const SPECULATIVE = 20;
  const REQUESTS = 60;
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      ...NO_SOURCE_NO_PROXY,
      TRUST_PROXY: "loopback",
      RATE_LIMIT_PER_MINUTE: String(API),
      PAGE_RATE_LIMIT_PER_MINUTE: String(PAGES),
      SPECULATIVE_RATE_LIMIT_PER_MINUTE: String(SPECULATIVE),
      METRICS_PORT: "0",
    });
  });
  afterAll(() => server?.stop());

  it("counts each forwarded client address on its own", async () => {
    const as = (ip: string) => rawRequest(server.url, "/api/calendar/events", { headers: { "X-Forwarded-For": ip } });
    expect((await as("198.51.100.1")).status).toBe(200);
    expect((await as("198.51.100.1")).status).toBe(200);
    expect((await as("198.51.100.1")).status).toBe(429);
    expect((await as("198.51.100.2")).status).toBe(200);
    // A client that puts its own X-Forwarded-For before the proxy's only fools itself: the proxy appends the real one.
    expect((await as("198.51.100.99, 198.51.100.1")).status).toBe(429);
  });

  describe("no header lifts a limit (issue 29)", () => {
    /** REQUESTS requests with Sec-Purpose: prefetch from one client, cycling through `targets`; the statuses. */
    async function flood(client: string, targets: string[]): Promise<number[]> {
      const statuses: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const target = targets[i % targets.length] as string;
        const answer = await rawRequest(server.url, target, {
          headers: { "Sec-Purpose": i % 2 ? "prefetch" : "prefetch;prerender", "X-Forwarded-For": client },
        });
        statuses.push(answer.status);
      }
      return statuses;
    }
    const refused = async (limit: string) => sample(await scrape(server), "http_requests_refused_total", { limit }) ?? 0;

    it(`answers ${REQUESTS} prefetches of the pages the rules name up to the speculative budget, then 429`, async () => {
      const before = await refused("speculative");
      const statuses = await flood("198.51.100.10", ["/", "/about", "/events", "/contact"]);
      expect(statuses.filter((status) => status === 200)).toHaveLength(SPECULATIVE);
      expect(statuses.slice(SPECULATIVE).every((status) => status === 429)).toBe(true);
      // The refusals are counted by the budget that made them.
      expect(await refused("speculative")).toBe(before + REQUESTS - SPECULATIVE);
    });

    it("counts a prefetch of anything the rules never name (a file, an image, a download, another spelling) as a page", async () => {
      const statuses = await flood("198.51.100.11", [
        "/favicon.svg",
        "/api/calendar/feed.ics",
        "/About",
        "/no-such-page",
        "/events/x/og.png",
      ]);
      expect(statuses.filter((status) => status !== 429)).toHaveLength(PAGES);
    });

    it(`refuses a client's prefetches too once it is over its page limit: a mixed flood gets ${PAGES} pages and ${PAGES} prefetches, then 429`, async () => {
      const before = { pages: await refused("pages"), speculative: await refused("speculative") };
      // A page the rules name (the speculative budget), then a file (the page budget), in turn: the
      // fifth file uses the page budget up, and from then on the client's prefetches are refused too,
      // though their own budget (20) has room.
      const statuses = await flood("198.51.100.12", ["/about", "/favicon.svg", "/events", "/api/calendar/feed.ics"]);
      expect(statuses.slice(0, 2 * PAGES)).toEqual(Array(2 * PAGES).fill(200));
      expect(statuses.slice(2 * PAGES)).toEqual(Array(REQUESTS - 2 * PAGES).fill(429));
      // Every refusal was the page limit's, none the speculative budget's.
      expect(await refused("pages")).toBe(before.pages + REQUESTS - 2 * PAGES);
      expect(await refused("speculative")).toBe(before.speculative);
      // And the client's own visits are refused too.
      const visit = await rawRequest(server.url, "/about", { headers: { "X-Forwarded-For": "198.51.100.12" } });
      expect(visit.status).toBe(429);
    });
  });
});

describe("the default limits and a crawler", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // Empty means unset: the shipped defaults.
    server = await startServer({ ...NO_SOURCE_NO_PROXY, RATE_LIMIT_PER_MINUTE: "", PAGE_RATE_LIMIT_PER_MINUTE: "" });
  });
  afterAll(() => server?.stop());

  /** Every same-site address a page links to or loads (href, src), as a crawler would follow them. */
  function linksOf(html: string): string[] {
    return [...html.matchAll(/\s(?:href|src)="(\/[^"]*)"/g)].map((match) => (match[1] as string).replace(/&amp;/g, "&"));
  }

  it("never refuses two crawls in a row of every link the site emits", async () => {
    const sitemap = await rawRequest(server.url, "/sitemap.xml");
    const pages = [...sitemap.body.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((match) => match[1] as string);
    expect(pages.length).toBeGreaterThanOrEqual(6);
    for (let crawl = 1; crawl <= 2; crawl++) {
      const seen = new Set<string>();
      const queue = [...pages, "/events?tab=past"];
      while (queue.length > 0) {
        const target = queue.shift() as string;
        if (seen.has(target)) continue;
        seen.add(target);
        const answer = await rawRequest(server.url, target);
        expect(answer.status, `crawl ${crawl}: ${target}`).not.toBe(429);
        if (String(answer.headers["content-type"]).startsWith("text/html")) {
          for (const link of linksOf(answer.body)) if (!seen.has(link)) queue.push(link);
        }
      }
      // The events list links an .ics download per event.
      expect([...seen].filter((target) => target.endsWith(".ics")).length, `crawl ${crawl}`).toBeGreaterThan(10);
    }
  });
});

// /api/* is limited per client address (RATE_LIMIT_PER_MINUTE); pages and files are not.
// X-Forwarded-For decides the address only behind a trusted proxy (TRUST_PROXY).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../support/raw-http";
import { startServer, type RunningServer } from "../support/start-server";

const NO_SOURCE = { GOOGLE_CALENDAR_ID: "", GOOGLE_API_KEY: "", CALENDAR_ICS_URL: "", GOOGLE_CALENDAR_API_URL: "", TRUST_PROXY: "" };
const LIMIT = 4;

describe("API rate limit, no trusted proxy", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...NO_SOURCE, RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => server?.stop());

  it(`answers ${LIMIT} API requests a minute, then 429 JSON with Retry-After`, async () => {
    for (let i = 0; i < LIMIT; i++) {
      const answer = await rawRequest(server.url, i % 2 ? "/api/calendar/events" : "/api/calendar/feed.ics");
      expect(answer.status, `request ${i + 1}`).toBe(200);
      expect(answer.headers["ratelimit-policy"]).toMatch(new RegExp(`^"${LIMIT}-in-1min"; q=${LIMIT}; w=60;`));
    }
    const limited = await rawRequest(server.url, "/api/calendar/events");
    expect(limited.status).toBe(429);
    expect(limited.headers["content-type"]).toMatch(/^application\/json/);
    expect(limited.headers["cache-control"]).toBe("no-store");
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(JSON.parse(limited.body)).toEqual({ error: `Too many requests; try again in ${retryAfter} seconds.` });
    // Security headers and the request id are there too.
    expect(limited.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(limited.headers["x-request-id"]).toBeDefined();
  });

  it("does not limit pages, files or probes", async () => {
    for (let i = 0; i < LIMIT * 3; i++) {
      for (const target of ["/about", "/favicon.svg", "/healthz", "/readyz"]) expect((await rawRequest(server.url, target)).status).toBe(200);
    }
  });

  it("does not believe X-Forwarded-For: a forged address is still the same client", async () => {
    const answer = await rawRequest(server.url, "/api/calendar/events", { headers: { "X-Forwarded-For": "203.0.113.9" } });
    expect(answer.status).toBe(429);
  });
});

describe("API rate limit behind a trusted proxy (TRUST_PROXY=loopback)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...NO_SOURCE, RATE_LIMIT_PER_MINUTE: "2", TRUST_PROXY: "loopback" });
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
});

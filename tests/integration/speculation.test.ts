// The pages' speculation rules make browsers load a page ahead (Sec-Purpose: prefetch, or
// prefetch;prerender) when the pointer rests on its link. Such a request is an ordinary read of a
// stored answer: the same bytes and headers as a visitor's, no render of its own, and a count in a
// budget of its own that never refuses the visitor the page they click (server/rate-limit.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../support/raw-http";
import { NO_SOURCE_NO_PROXY } from "../support/environments";
import { startServer, type RunningServer, renderedUrls } from "../support/start-server";

const PURPOSES = ["prefetch", "prefetch;prerender"];
const ENCODING = { "Accept-Encoding": "gzip, deflate, br, zstd" };

const renders = (server: RunningServer) => renderedUrls(server).length;

/** Every page a rule can name, an event's page included. */
async function pagesOf(server: RunningServer): Promise<string[]> {
  const list = JSON.parse((await rawRequest(server.url, "/api/calendar/events")).body) as { events: { id: string }[] };
  const event = list.events[0];
  expect(event, "the sample calendar has an event").toBeDefined();
  return ["/", "/apply", "/about", "/contact", "/portal", "/events", "/events?tab=past", `/events/${event!.id}`];
}

describe("speculative loads are ordinary cached reads", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...NO_SOURCE_NO_PROXY, LOG_LEVEL: "debug" });
  });
  afterAll(() => server?.stop());

  it("get the visitor's bytes and headers, with the speculation rules, and make no render", async () => {
    const pages = await pagesOf(server);
    for (const page of pages) await rawRequest(server.url, page, { headers: ENCODING });
    await server.logCaughtUp();
    const before = renders(server);
    for (const page of pages) {
      const visitor = await rawRequest(server.url, page, { headers: ENCODING });
      expect(visitor.status, page).toBe(200);
      for (const purpose of PURPOSES) {
        const ahead = await rawRequest(server.url, page, { headers: { ...ENCODING, "Sec-Purpose": purpose } });
        expect(ahead.status, `${page} ${purpose}`).toBe(200);
        expect(ahead.bytes.equals(visitor.bytes), `${page} ${purpose}`).toBe(true);
        for (const name of ["etag", "cache-control", "content-security-policy", "vary", "content-type"]) {
          expect(ahead.headers[name], `${page} ${purpose} ${name}`).toEqual(visitor.headers[name]);
        }
      }
      // The rules are in the page, and its CSP allows them by hash like its other inline scripts.
      const html = (await rawRequest(server.url, page)).body;
      expect(html).toMatch(/<script type="speculationrules">\{"prerender":/);
      expect(visitor.headers["content-security-policy"]).not.toMatch(/unsafe|inline-speculation-rules/);
    }
    await server.logCaughtUp();
    expect(renders(server)).toBe(before);
  });
});

describe("speculative loads and the rate limits", () => {
  const LIMIT = 6;
  const SPECULATIVE = LIMIT * 5;
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      ...NO_SOURCE_NO_PROXY,
      PAGE_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      SPECULATIVE_RATE_LIMIT_PER_MINUTE: String(SPECULATIVE),
      RATE_LIMIT_PER_MINUTE: "2",
    });
  });
  afterAll(() => server?.stop());

  it("count in a budget of their own: a visitor who hovered many links still gets every page they open", async () => {
    for (let i = 0; i < LIMIT * 4; i++) {
      const purpose = PURPOSES[i % 2] as string;
      const answer = await rawRequest(server.url, ["/about", "/events", "/contact"][i % 3] as string, {
        headers: { "Sec-Purpose": purpose },
      });
      expect(answer.status, `speculative load ${i + 1}`).toBe(200);
    }
    for (let i = 0; i < LIMIT; i++) expect((await rawRequest(server.url, "/about")).status, `visit ${i + 1}`).toBe(200);
    // Over the page limit now: a page loaded ahead would be refused when opened, so it is refused now.
    const refused = await rawRequest(server.url, "/about", { headers: { "Sec-Purpose": "prefetch;prerender" } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect((await rawRequest(server.url, "/about")).status).toBe(429);
  });

  it("of the API (which no rule names) count like any other request", async () => {
    const api = (purpose?: string) =>
      rawRequest(server.url, "/api/calendar/events", { headers: purpose ? { "Sec-Purpose": purpose } : {} });
    expect((await api("prefetch")).status).toBe(200);
    expect((await api("prefetch")).status).toBe(200);
    expect((await api()).status).toBe(429);
  });
});

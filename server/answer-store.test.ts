import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { EventsOutcome } from "~/events/server/outcome.server";
import { createAnswerStore, type AnswerStoreOptions, type Render } from "./answer-store";
import { EVENTS_CACHE_CONTROL, STATIC_CACHE_CONTROL } from "./cache-policy";
import { inOrder } from "./step";

const MB = 1024 * 1024;
let server: Server | undefined;
afterEach(() => server?.close());

/** The store as the only step of a real HTTP server, over a renderer that answers what the test says. */
async function serve(render: Render, outcome: EventsOutcome, budgets: AnswerStoreOptions["budgets"] = { pages: 64 * MB, images: 32 * MB }) {
  const store = createAnswerStore({
    render,
    csp: () => "default-src 'self'",
    secure: () => false,
    eventsOutcome: async () => outcome,
    budgets,
  });
  server = createServer(inOrder([store.step], (_req, res) => res.writeHead(418).end()));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(
    async (path: string) => {
      const response = await fetch(`${base}${path}`);
      return { status: response.status, cacheControl: response.headers.get("cache-control"), body: await response.text() };
    },
    { stats: store.stats },
  );
}

const events: EventsOutcome = {
  ok: true,
  response: { events: [], stale: false },
  json: new TextEncoder().encode("[]"),
  version: "v1",
  hasEvent: () => false,
  hasArchivePage: () => false,
  splitAt: 0,
};

describe("the answer store", () => {
  it("never keeps a 5xx: the next request renders again, and a success is then kept", async () => {
    const statuses = [500, 502, 200];
    const rendered: string[] = [];
    const get = await serve(async (url) => {
      rendered.push(url);
      const status = statuses.shift() ?? 200;
      return new Response(`status ${status}`, {
        status,
        headers: { "Content-Type": "text/plain", "Cache-Control": "public, max-age=99999" },
      });
    }, events);
    expect(await get("/api/calendar/events")).toEqual({ status: 500, cacheControl: "no-store", body: "status 500" });
    expect(await get("/api/calendar/events")).toEqual({ status: 502, cacheControl: "no-store", body: "status 502" });
    // The route's own Cache-Control never reaches a visitor: the store decides.
    expect(await get("/api/calendar/events")).toEqual({ status: 200, cacheControl: EVENTS_CACHE_CONTROL, body: "status 200" });
    expect(await get("/api/calendar/events")).toMatchObject({ status: 200 });
    expect(await get("/")).toMatchObject({ status: 200, cacheControl: STATIC_CACHE_CONTROL });
    expect(rendered).toEqual(["/api/calendar/events", "/api/calendar/events", "/api/calendar/events", "/"]);
  });

  it("lets no one keep an events answer rendered without the calendar", async () => {
    const get = await serve(async () => new Response("<p>loading</p>", { headers: { "Content-Type": "text/html" } }), {
      ok: false,
      loading: true,
      version: "loading|1",
    });
    expect(await get("/events")).toMatchObject({ status: 200, cacheControl: "no-store" });
    expect(await get("/sitemap.xml")).toMatchObject({ status: 200, cacheControl: "no-store" });
  });

  it("keeps share images and the calendar's pages in budgets of their own: filling them evicts no static page", async () => {
    const rendered: string[] = [];
    const withEvents: EventsOutcome = { ...events, hasEvent: () => true };
    const png = Buffer.alloc(40 * 1024, 1);
    const get = await serve(
      async (url) => {
        rendered.push(url);
        if (url.endsWith("/og.png")) return new Response(png, { headers: { "Content-Type": "image/png" } });
        // Random text: compression cannot shrink it below the budget.
        return new Response(`<p>${url}</p>${randomBytes(20 * 1024).toString("base64")}`, { headers: { "Content-Type": "text/html" } });
      },
      withEvents,
      { pages: 256 * 1024, images: 256 * 1024 },
    );
    for (const page of ["/", "/about", "/contact"]) expect(await get(page)).toMatchObject({ status: 200 });
    // Twenty images (800 kB) and twenty event pages (over 1 MB with their compressed forms): four times each budget.
    for (let i = 0; i < 20; i++) expect(await get(`/events/e${i}/og.png`)).toMatchObject({ status: 200 });
    for (let i = 0; i < 20; i++) expect(await get(`/events/e${i}`)).toMatchObject({ status: 200 });
    rendered.length = 0;
    for (const page of ["/", "/about", "/contact"]) expect(await get(page)).toMatchObject({ status: 200 });
    expect(rendered).toEqual([]);
    const stats = get.stats();
    expect(stats.static).toMatchObject({ evictions: 0, renders: 3, hits: 3, misses: 3 });
    expect(stats.static.maxBytes).toBeUndefined();
    expect(stats.images.evictions).toBeGreaterThan(0);
    expect(stats.images.renders).toBe(20);
    expect(stats.images.bytes).toBeLessThanOrEqual(256 * 1024);
    expect(stats.pages.evictions).toBeGreaterThan(0);
    expect(stats.pages.renders).toBe(20);
    expect(stats.pages.bytes).toBeLessThanOrEqual(256 * 1024);
  });
});

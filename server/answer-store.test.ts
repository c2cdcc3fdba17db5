import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { CalendarEvent } from "~/events/model";
import type { EventsOutcome } from "~/events/server/outcome.server";
import { createShareImages, type ShareImages } from "~/events/server/share-images.server";
import { createAnswerStore, type AnswerStoreOptions, type Render, type ShareCardSource } from "./answer-store";
import { EVENTS_CACHE_CONTROL, STATIC_CACHE_CONTROL } from "./cache-policy";
import { imagesBudget } from "./site";
import { inOrder } from "./step";

const MB = 1024 * 1024;
let server: Server | undefined;
afterEach(() => server?.close());

/** The store as the only step of a real HTTP server, over a renderer that answers what the test says. */
async function serve(
  render: Render,
  outcome: EventsOutcome | (() => EventsOutcome),
  budgets: AnswerStoreOptions["budgets"] = { pages: 64 * MB },
  shareCards?: ShareCardSource,
) {
  const store = createAnswerStore({
    render,
    csp: () => "default-src 'self'",
    secure: () => false,
    eventsOutcome: async () => (typeof outcome === "function" ? outcome() : outcome),
    budgets,
    shareCards,
  });
  server = createServer(inOrder([store.step], (_req, res) => res.writeHead(418).end()));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(
    async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${path}`, { headers });
      const bytes = Buffer.from(await response.arrayBuffer());
      return {
        status: response.status,
        cacheControl: response.headers.get("cache-control"),
        etag: response.headers.get("etag"),
        body: bytes.toString("utf8"),
        bytes,
      };
    },
    { stats: store.stats, prepareEvents: store.prepareEvents },
  );
}

const events: Extract<EventsOutcome, { ok: true }> = {
  ok: true,
  response: { events: [], stale: false },
  json: new TextEncoder().encode("[]"),
  version: "v1",
  eventOf: () => undefined,
  hasArchivePage: () => false,
  splitAt: 0,
};

/** An outcome listing these events (any id asked for is one of them). */
const listing = (version: string, list: CalendarEvent[]): Extract<EventsOutcome, { ok: true }> => ({
  ...events,
  version,
  response: { events: list, stale: false },
  eventOf: (id) => list.find((event) => event.id === id),
});

/** A real share cards' store whose drawing (a worker, in the server) gives each card its own 40 kB of bytes. */
function cardStore(maxBytes: number): { images: ShareImages; source: ShareCardSource; drawn: string[] } {
  const drawn: string[] = [];
  const silent = { debug: () => {}, warn: () => {}, error: () => {} };
  const images = createShareImages({
    draw: async (card) => {
      drawn.push(card.title);
      return { png: randomBytes(40 * 1024), missing: [], ms: 1, pid: process.pid };
    },
    siteOf: () => ({ name: "Founders Circle", shortName: "FC", host: "founders.example.org" }),
    log: silent,
    ahead: 0,
    maxBytes,
  });
  const source: ShareCardSource = {
    png: (event) => images.imageFor(event),
    stats: () => imagesBudget(images.stats()),
  };
  return { images, source, drawn };
}

const event = (id: string, summary = `Event ${id}`): CalendarEvent => ({ id, summary, start: { date: "2030-01-01" } });

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
    expect(await get("/api/calendar/events")).toMatchObject({ status: 500, cacheControl: "no-store", body: "status 500" });
    expect(await get("/api/calendar/events")).toMatchObject({ status: 502, cacheControl: "no-store", body: "status 502" });
    // The route's own Cache-Control never reaches a visitor: the store decides.
    expect(await get("/api/calendar/events")).toMatchObject({ status: 200, cacheControl: EVENTS_CACHE_CONTROL, body: "status 200" });
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
    const list = Array.from({ length: 20 }, (_, i) => event(`e${i}`));
    const cards = cardStore(256 * 1024);
    const get = await serve(
      async (url) => {
        rendered.push(url);
        // Random text: compression cannot shrink it below the budget.
        return new Response(`<p>${url}</p>${randomBytes(20 * 1024).toString("base64")}`, { headers: { "Content-Type": "text/html" } });
      },
      listing("v1", list),
      { pages: 256 * 1024 },
      cards.source,
    );
    for (const page of ["/", "/about", "/contact"]) expect(await get(page)).toMatchObject({ status: 200 });
    // Twenty images (800 kB) and twenty event pages (over 1 MB with their compressed forms): four times each budget.
    for (let i = 0; i < 20; i++)
      expect(await get(`/events/e${i}/og.png`)).toMatchObject({ status: 200, cacheControl: EVENTS_CACHE_CONTROL });
    for (let i = 0; i < 20; i++) expect(await get(`/events/e${i}`)).toMatchObject({ status: 200 });
    // The images are the cards' store's, never a render of the store's own.
    expect(rendered.filter((url) => url.endsWith("/og.png"))).toEqual([]);
    rendered.length = 0;
    for (const page of ["/", "/about", "/contact"]) expect(await get(page)).toMatchObject({ status: 200 });
    expect(rendered).toEqual([]);
    const stats = get.stats();
    expect(stats.static).toMatchObject({ evictions: 0, renders: 3, hits: 3, misses: 3 });
    expect(stats.static.maxBytes).toBeUndefined();
    expect(stats.images).toMatchObject({ renders: 20, maxBytes: 256 * 1024 });
    expect(stats.images.evictions).toBeGreaterThan(0);
    expect(stats.images.bytes).toBeLessThanOrEqual(256 * 1024);
    expect(stats.pages.evictions).toBeGreaterThan(0);
    expect(stats.pages.renders).toBe(20);
    expect(stats.pages.bytes).toBeLessThanOrEqual(256 * 1024);
  });

  it("answers a share card from the cards' store's very bytes, once held: a new version with the same card draws nothing", async () => {
    const cards = cardStore(32 * MB);
    let outcome = listing("v1", [event("a", "Demo night")]);
    const get = await serve(
      async () => new Response("<p>page</p>", { headers: { "Content-Type": "text/html" } }),
      () => outcome,
      undefined,
      cards.source,
    );
    const first = await get("/events/a/og.png");
    expect(first.status).toBe(200);
    const kept = await cards.images.imageFor(event("a", "Demo night"));
    expect(first.bytes.equals(kept)).toBe(true);
    // Revalidation: the same ETag, a 304.
    expect((await get("/events/a/og.png", { "If-None-Match": first.etag! })).status).toBe(304);
    outcome = listing("v2", [event("a", "Demo night"), event("b")]);
    expect((await get("/events/a/og.png")).etag).toBe(first.etag);
    expect(cards.drawn).toEqual(["Demo night"]);
    // Its text changed: drawn again.
    outcome = listing("v3", [event("a", "Demo night, moved")]);
    expect((await get("/events/a/og.png")).etag).not.toBe(first.etag);
    expect(cards.drawn).toEqual(["Demo night", "Demo night, moved"]);
  });

  it("prepares the events answers once per version, says when the version next changes, and fails when one cannot be made", async () => {
    const rendered: string[] = [];
    let status = 200;
    let outcome: EventsOutcome = { ...listing("v1", []), nextChangeAt: 1_234 };
    const get = await serve(
      async (url) => {
        rendered.push(url);
        return new Response(`<p>${url}</p>`, { status, headers: { "Content-Type": "text/html" } });
      },
      () => outcome,
    );
    expect(await get.prepareEvents()).toBe(1_234);
    expect(rendered.sort()).toEqual(["/api/calendar/events", "/events", "/events?tab=past"]);
    expect(await get.prepareEvents()).toBe(1_234);
    expect(rendered).toHaveLength(3);
    // Stale, then fresh again with the same events: each a version of its own, each prepared.
    outcome = { ...listing("v1|stale", []) };
    expect(await get.prepareEvents()).toBeUndefined();
    outcome = { ...listing("v1|fresh", []) };
    await get.prepareEvents();
    expect(rendered).toHaveLength(9);
    // A calendar that is unavailable has nothing to prepare.
    outcome = { ok: false, loading: false, version: "unavailable|1" };
    expect(await get.prepareEvents()).toBeUndefined();
    expect(rendered).toHaveLength(9);
    status = 500;
    outcome = listing("v2", []);
    await expect(get.prepareEvents()).rejects.toThrow("an events answer could not be made (status 500)");
  });
});

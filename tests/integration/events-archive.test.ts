// Issue 37: the archive in pages. Every event of the calendar is linked from some list page reachable from
// /events by plain links (no JavaScript); each archive page has one canonical, cacheable address, its title
// and canonical link; any other address under /events/month answers the stored 404 page without a render.
// Against the fake Google with a community's calendar as Google sends it (busy months come in parts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_SIZE } from "~/events/archive";
import { crawlListPages, eventPagesLinked } from "../../scripts/bench/list-crawl.js";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { generateGoogleEvents } from "../fakes/google-events";
import { suiteClock } from "../support/clock";
import { rawRequest } from "../support/raw-http";
import { calendarRead, renderedUrls, startServer, type RunningServer } from "../support/start-server";

const SITE_URL = "https://founders.example.org";
/** Enough for about 60 events a month: the busiest months take two pages. */
const EVENTS = 1_500;

describe("the events archive", () => {
  let fake: FakeGoogleCalendar;
  let server: RunningServer;
  /** Every list page a visitor reaches from /events by following links, with its HTML. */
  let pages = new Map<string, string>();

  beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
    fake.setEvents(generateGoogleEvents({ count: EVENTS, now: suiteClock().now() }));
    server = await startServer({ ...fake.env, SITE_URL, LOG_LEVEL: "debug" });
    // The crawl reads the archive, not the page a visitor gets while the first read is still going.
    await calendarRead(server.url);
    pages = await crawlListPages(async (path) => {
      const answer = await rawRequest(server.url, path);
      expect(answer.status, path).toBe(200);
      return answer.body;
    });
    // A server, a read of 1,500 events and a crawl of every list page: about 20 s quiet.
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("links every event of the calendar from some list page reachable from /events", async () => {
    const { events } = JSON.parse((await rawRequest(server.url, "/api/calendar/events")).body) as { events: { id: string }[] };
    expect(events).toHaveLength(EVENTS);
    const linked = eventPagesLinked(pages.values());
    expect(events.filter((event) => !linked.has(`/events/${event.id}`)).map((event) => event.id)).toEqual([]);
    // A month a page, the busy ones in parts of PAGE_SIZE, and /events with its two tabs.
    const archive = [...pages.keys()].filter((path) => path.startsWith("/events/month/"));
    expect(archive.length).toBeGreaterThanOrEqual(Math.ceil(EVENTS / PAGE_SIZE));
    expect(archive.some((path) => /\/\d+$/.test(path))).toBe(true);
    expect(pages.size).toBeLessThanOrEqual(400);
  });

  it("gives each archive page its title, its canonical link to its own address and at most PAGE_SIZE events", () => {
    const titles = new Set<string>();
    for (const [path, html] of pages) {
      if (!path.startsWith("/events/month/")) continue;
      const title = /<title>([^<]+)<\/title>/.exec(html)?.[1] ?? "";
      expect(title, path).toMatch(/^Events (in \w+ \d{4}|with a date to be announced)( \(page \d+ of \d+\))? · /);
      titles.add(title);
      expect(html, path).toContain(`<link rel="canonical" href="${SITE_URL}${path}"/>`);
      expect((html.match(/<article\b/g) ?? []).length, path).toBeLessThanOrEqual(PAGE_SIZE);
    }
    expect(titles.size).toBe([...pages.keys()].filter((path) => path.startsWith("/events/month/")).length);
  });

  it("answers each archive page from the store: shared-cacheable, the same bytes again, 304 on its ETag", async () => {
    const path = [...pages.keys()].find((candidate) => candidate.startsWith("/events/month/"))!;
    const first = await rawRequest(server.url, path, { headers: { "Accept-Encoding": "br" } });
    const again = await rawRequest(server.url, path, { headers: { "Accept-Encoding": "br" } });
    expect(first.headers["cache-control"]).toMatch(/^public, max-age=\d+, s-maxage=\d+/);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    const etag = String(first.headers.etag);
    expect((await rawRequest(server.url, path, { headers: { "If-None-Match": etag, "Accept-Encoding": "br" } })).status).toBe(304);
    // Query strings change nothing.
    expect((await rawRequest(server.url, `${path}?utm_source=x&page=3`, { headers: { "Accept-Encoding": "br" } })).headers.etag).toBe(etag);
  });

  it("answers an address outside the window or written otherwise with the stored 404 page, without a render", async () => {
    const month = [...pages.keys()].find((path) => /^\/events\/month\/\d{4}-\d{2}$/.test(path))!;
    const notFound = await rawRequest(server.url, "/no-such-page");
    await rawRequest(server.url, "/events/month/2001-01.data");
    await server.logCaughtUp();
    const before = renderedUrls(server).length;
    const junk = [
      "/events/month/2001-01",
      "/events/month/2999-12",
      "/events/month/2026-13",
      "/events/month/2026-1",
      "/events/month/202603",
      "/events/month/undated",
      "/events/month/latest",
      `${month}/1`,
      `${month}/01`,
      `${month}/99`,
      `${month}/2x`,
      `${month}/2/3`,
      "/events/month",
      "/events/month/",
    ];
    for (const target of junk) {
      const answer = await rawRequest(server.url, target);
      expect(answer.status, target).toBe(404);
      expect(answer.body, target).toBe(notFound.body);
    }
    // In-app navigation's data for a page that does not exist.
    expect((await rawRequest(server.url, "/events/month/2001-01.data")).status).toBe(404);
    await server.logCaughtUp();
    expect(renderedUrls(server).slice(before)).toEqual([]);
  });

  it("answers an archive page's data for in-app navigation (browsers without speculation rules)", async () => {
    const path = [...pages.keys()].find((candidate) => candidate.startsWith("/events/month/"))!;
    const answer = await rawRequest(server.url, `${path}.data`);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^text\/x-script/);
    // An event's page too: its id is not read as "{id}.data".
    const id = /href="\/events\/([\w-]+)"/.exec(pages.get(path)!)![1];
    expect((await rawRequest(server.url, `/events/${id}.data`)).status).toBe(200);
  });

  it("keeps every list page light: no description's HTML, at most 300 KB", () => {
    for (const [path, html] of pages) {
      expect(Buffer.byteLength(html), path).toBeLessThanOrEqual(300 * 1024);
      // The generated descriptions carry an agenda list and wrapped links: only the plain-text excerpt reaches a list.
      expect(html, path).not.toMatch(/<ul><li>6:30 pm|google\.com\/url\?q=/);
    }
  });
});

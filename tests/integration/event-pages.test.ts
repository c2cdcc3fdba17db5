// A page and a share image per event (issue 13), as the server sends them: every listed event has
// both, an unknown id is the site's 404 without a render, the sitemap lists the upcoming pages, and
// /events stays the same size however many events the calendar holds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { rawRequest } from "../support/raw-http";
import { startServer, type RunningServer, renderedUrls } from "../support/start-server";
import { FAST_TIMINGS, UNTIL_MS } from "../support/timings";

type ApiEvent = { id: string; summary?: string };

function eventJsonLd(html: string): Array<Record<string, unknown>> {
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
  return blocks.flat().filter((b) => b["@type"] === "Event");
}

const renders = (server: RunningServer) => renderedUrls(server).length;
const SITE_URL = "https://founders.example.org";

// One server follows the fake's calendar: its copy is fresh for 200 ms, so a test that changes the
// calendar waits until the server shows the change.
let fake: FakeGoogleCalendar;
let server: RunningServer;
beforeAll(async () => {
  fake = await startFakeGoogleCalendar();
  fake.setScenario("hostile");
  server = await startServer({ ...fake.env, SITE_URL, LOG_LEVEL: "debug" }, { timings: FAST_TIMINGS });
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

/** `path`'s answer once `shown` holds for it (each answer after the copy's 200 ms may start a read). */
async function answerShowing(path: string, shown: (body: string) => boolean, headers: Record<string, string> = {}) {
  let answer = await rawRequest(server.url, path, { headers });
  await expect
    .poll(
      async () => {
        answer = await rawRequest(server.url, path, { headers });
        return shown(answer.body);
      },
      { timeout: UNTIL_MS, interval: 50 },
    )
    .toBe(true);
  return answer;
}

describe("event pages from a Google calendar with hostile descriptions", () => {
  let events: ApiEvent[];

  beforeAll(async () => {
    events = ((await (await fetch(`${server.url}/api/calendar/events`)).json()) as { events: ApiEvent[] }).events;
  });

  it("answers every listed event with its page: heading, canonical link, og:image and Event JSON-LD", async () => {
    expect(events.length).toBeGreaterThan(8);
    for (const event of events) {
      const res = await fetch(`${server.url}/events/${event.id}`);
      expect(res.status, event.id).toBe(200);
      const html = await res.text();
      const title = event.summary ?? "Untitled Event";
      const h1 = /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
      expect(h1, event.id).toBe(title.replace(/&/g, "&amp;"));
      expect(html).toContain(`<link rel="canonical" href="${SITE_URL}/events/${event.id}"/>`);
      expect(html).toContain(`<meta property="og:image" content="${SITE_URL}/events/${event.id}/og.png"/>`);
      const [ld, ...more] = eventJsonLd(html);
      expect(more).toHaveLength(0);
      expect(ld).toMatchObject({
        "@type": "Event",
        name: title,
        url: `${SITE_URL}/events/${event.id}`,
        organizer: { "@type": "Organization" },
      });
      expect(String(ld!.startDate)).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2})?$/);
    }
  });

  it("ends an all-day event on its last day in its JSON-LD, on its page and on /events; a timed one at its instant with its offset", async () => {
    const calendar = Object.fromEntries(fake.events().map((event) => [event.id, event]));
    const day = (date: string, plus: number) => new Date(Date.parse(`${date}T00:00:00Z`) + plus * 86_400_000).toISOString().slice(0, 10);
    const pageLd = async (id: string) => eventJsonLd(await (await fetch(`${server.url}/events/${id}`)).text())[0]!;
    // /events describes its upcoming events.
    const listLd = async (id: string) =>
      eventJsonLd(await (await fetch(`${server.url}/events`)).text()).find((item) => String(item.url).endsWith(`/events/${id}`))!;

    // The three-day retreat: the calendar's end is the day after its last day (exclusive).
    const retreat = calendar.retreat!;
    if (!("date" in retreat.start) || !("date" in retreat.end)) throw new Error("the fake's retreat is all-day");
    expect(retreat.end.date).toBe(day(retreat.start.date, 3));
    const retreatDates = { startDate: retreat.start.date, endDate: day(retreat.start.date, 2) };
    expect(await pageLd("retreat")).toMatchObject(retreatDates);
    expect(await listLd("retreat")).toMatchObject(retreatDates);

    // A one-day all-day event ends the day it starts.
    const demoDay = calendar.past200allday!;
    if (!("date" in demoDay.start)) throw new Error("the fake's demo day is all-day");
    const demoDates = { startDate: demoDay.start.date, endDate: demoDay.start.date };
    expect(await pageLd("past200allday")).toMatchObject(demoDates);

    // Timed: full date-times with New York's offset, the same instants the calendar gave.
    const next = calendar.next7!;
    if (!("dateTime" in next.start) || !("dateTime" in next.end)) throw new Error("the fake's next7 is timed");
    const timed = await pageLd("next7");
    for (const [key, value] of [
      ["startDate", next.start.dateTime],
      ["endDate", next.end.dateTime],
    ] as const) {
      expect(String(timed[key])).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[45]:00$/);
      expect(Date.parse(String(timed[key]))).toBe(Date.parse(value));
    }
  });

  it("marks a past event as past, with no add-to-calendar, and an upcoming one with both downloads", async () => {
    const past = await (await fetch(`${server.url}/events/past30`)).text();
    expect(past).toMatch(/This event took place on (<!-- -->)?<time dateTime="[^"]+">/);
    expect(past).not.toContain("Add to calendar");
    expect(past).toContain('href="/events?tab=past"');
    const upcoming = await (await fetch(`${server.url}/events/next7`)).text();
    expect(upcoming).toContain('href="/api/calendar/events/next7.ics"');
    expect(upcoming).toContain("https://calendar.google.com/calendar/render?action=TEMPLATE");
    expect(upcoming).not.toContain("took place");
    // An Open event links to what its description provides, not an RSVP nobody answers.
    expect(upcoming).toContain("How to join");
    expect(upcoming).toContain('href="https://example.org/rsvp"');
    const members = await (await fetch(`${server.url}/events/member90`)).text();
    expect(members).toContain("RSVP in the member portal");
    expect(members).not.toContain("How to join");
  });

  it("keeps hostile descriptions inert on the page", async () => {
    for (const [id, title, text] of [
      ["hostile1", "Hostile script", "Hello"],
      ["hostile2", "Hostile onerror", "Image"],
      ["hostile3", "Hostile link", "Click me"],
    ]) {
      const html = await (await fetch(`${server.url}/events/${id}`)).text();
      const body = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
      // The event's own page, its description shown (not an empty or error page, which would pass the rest).
      expect(/<h1[^>]*>([^<]*)<\/h1>/.exec(body)?.[1], id).toBe(title);
      expect(body, id).toContain(text);
      expect(body).not.toMatch(/<script(?! type="application\/ld\+json")/);
      expect(body).not.toMatch(/\sonerror\s*=|javascript:|<iframe|<img/i);
    }
  });

  it("serves each event's share image: a stored 1200×630 PNG with an ETag, 304 when unchanged", async () => {
    const first = await rawRequest(server.url, "/events/next7/og.png", { headers: { "Accept-Encoding": "gzip, br" } });
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toBe("image/png");
    expect(first.headers["content-encoding"]).toBeUndefined();
    expect(first.bytes.readUInt32BE(16)).toBe(1200);
    expect(first.bytes.readUInt32BE(20)).toBe(630);
    expect(first.headers["cache-control"]).toMatch(/^public, max-age=\d+, s-maxage=\d+/);
    const again = await rawRequest(server.url, "/events/next7/og.png");
    expect(again.bytes.equals(first.bytes)).toBe(true);
    const conditional = await rawRequest(server.url, "/events/next7/og.png", { headers: { "If-None-Match": String(first.headers.etag) } });
    expect(conditional.status).toBe(304);
    const other = await rawRequest(server.url, "/events/member90/og.png");
    expect(other.bytes.equals(first.bytes)).toBe(false);
  });

  it("answers an unknown or malformed id with the site's 404 page, without a render", async () => {
    const notFound = await rawRequest(server.url, "/no/such/page");
    await rawRequest(server.url, "/events/no-such-event");
    const before = renders(server);
    for (const target of [
      "/events/no-such-event",
      "/events/%3Cscript%3E",
      "/events/a.b",
      "/events/no-such-event/og.png",
      `/events/${"x".repeat(300)}`,
    ]) {
      const answer = await rawRequest(server.url, target);
      expect(answer.status, target).toBe(404);
      expect(answer.headers["content-type"], target).toMatch(/^text\/html/);
      expect(answer.body, target).toBe(notFound.body);
    }
    expect(renders(server)).toBe(before);
  });

  it("lists the upcoming event pages in the sitemap, with lastmod, and no past ones", async () => {
    const xml = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(xml).toContain(`<url><loc>${SITE_URL}/events/next7</loc><lastmod>2024-01-03T15:04:05.000Z</lastmod></url>`);
    expect(xml).toContain(`${SITE_URL}/events/member90<`);
    expect(xml).not.toContain("/events/past30");
    expect(xml).toContain(`<url><loc>${SITE_URL}/about</loc></url>`);
  });

  it("points each event of /events's JSON-LD at its page", async () => {
    const items = eventJsonLd(await (await fetch(`${server.url}/events`)).text());
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(String(item.url)).toMatch(new RegExp(`^${SITE_URL}/events/[\\w-]+$`));
  });
});

describe("an event page while the calendar is down", () => {
  it("says it shows the event as last updated, from the stale copy", async () => {
    expect(await (await fetch(`${server.url}/events/next7`)).text()).not.toContain("as last updated");
    fake.setScenario("error500");
    // The first request after the copy's 200 ms answers at once and refreshes in the background.
    const { body: html } = await answerShowing("/events/next7", (body) => body.includes("as last updated"));
    expect(html).toContain("The calendar could not be reached just now. Showing this event as last updated");
    expect(/<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]).toBe("Speaker Series: Pricing");
  });
});

describe("/events weighs the same for a small and a 3,000-event calendar", () => {
  /** The page's bytes, uncompressed, once it lists `calendar`'s first views (not its loading or error state). */
  async function eventsBytes(scenario: "normal" | "busy", cards: number): Promise<number> {
    fake.setScenario(scenario);
    const listed = (body: string) =>
      (body.match(/<h3 id="event-/g)?.length ?? 0) === cards && !body.includes("Loading events...") && !body.includes("as last updated");
    const answer = await answerShowing("/events", listed, { "Accept-Encoding": "identity" });
    expect(answer.status).toBe(200);
    return answer.bytes.length;
  }

  it("carries the first views of both tabs, not the calendar's window", async () => {
    // The small calendar: its four upcoming and four past events. The busy one: ten of each tab.
    const small = await eventsBytes("normal", 8);
    const busy = await eventsBytes("busy", 20);
    // Before: 973 KB for the busy calendar. Now each carries the first ten events of each tab (so a
    // tab switches in place), so the busy page grows by twelve short events at most, not by 3,000.
    expect(busy).toBeLessThan(150_000);
    expect(busy - small).toBeLessThan(12 * 6_000);
    expect(busy).toBeGreaterThan(small);
  });
});

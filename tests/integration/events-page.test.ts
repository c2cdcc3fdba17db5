// The /events page as the server sends it (no JavaScript): every list state, from real sources.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGoogleCalendar, type FakeGoogleCalendar, type GoogleScenario } from "../fakes/google-calendar";
import { startServer, type RunningServer, NO_SOURCE } from "../support/start-server";

async function page(server: RunningServer, search = "") {
  const res = await fetch(`${server.url}/events${search}`);
  return { status: res.status, html: await res.text() };
}

/** The list the address's tab shows: both tabs' lists are in the page, the other one hidden. */
function shownList(html: string): string {
  const parts = html.split(/(?=<div data-tab-panel=)|(?=<h2 id="calendar-heading")/);
  return parts.find((part) => /^<div data-tab-panel="\w+">/.test(part)) ?? "";
}

/** The titles of the event cards the address's tab shows, in page order. */
function titles(html: string): string[] {
  return [...shownList(html).matchAll(/<h3 id="event-[^"]+"[^>]*>(?:<a [^>]*>)?([^<]*)(?:<\/a>)?<\/h3>/g)].map((m) => m[1]!);
}

function jsonLd(html: string): Array<Record<string, unknown>> {
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
  return blocks.flat().filter((b) => b["@type"] === "Event");
}

describe("/events with the bundled sample calendar", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(NO_SOURCE);
  });
  afterAll(() => server?.stop());

  it("has upcoming events in the server HTML, ten at a time, with badges, each card a link to its page", async () => {
    const { status, html } = await page(server);
    expect(status).toBe(200);
    expect(titles(html)).toHaveLength(10);
    expect(html).toContain("Upcoming events");
    expect(html).toMatch(/>Members Only</);
    expect(html).toMatch(/>Open</);
    for (const card of shownList(html).match(/<article\b[\s\S]*?<\/article>/g) ?? [])
      expect(card).toMatch(/<h3 id="event-([\w-]+)"><a href="\/events\/\1"/);
    // The list goes on in the archive (issue 37), and the months are listed.
    expect(html).toMatch(/<a [^>]*href="\/events\/month\/\d{4}-\d{2}(\/\d+)?"[^>]*>More upcoming events: \w+ \d{4}</);
    expect(html).toMatch(/<nav aria-labelledby="months-heading"/);
    expect(html).toContain('href="/api/calendar/feed.ics"');
    expect(html).not.toContain("Loading events...");
  });

  it("filters for real: ?tab=past shows ended events, most recent first", async () => {
    const { html } = await page(server, "?tab=past");
    expect(html).toContain('<span data-tab-panel="past">Past events</span>');
    const pastDates = [...shownList(html).matchAll(/<time dateTime="([^"]+)"/g)].map((m) => m[1]!);
    expect(pastDates.length).toBeGreaterThan(0);
    for (const date of pastDates) expect(Date.parse(date.length === 10 ? `${date}T23:59:59-05:00` : date)).toBeLessThan(Date.now());
    // Most recent first.
    const instants = pastDates.map((d) => Date.parse(d.length === 10 ? `${d}T12:00:00Z` : d));
    expect(instants).toEqual([...instants].sort((a, b) => b - a));
  });

  it("holds both tabs' first views, the other one hidden, and the tabs marked for a switch in place", async () => {
    for (const [search, tab, other] of [
      ["", "upcoming", "past"],
      ["?tab=past", "past", "upcoming"],
    ] as const) {
      const { html } = await page(server, search);
      expect(html).toContain(`<div data-tab-panel="${tab}">`);
      expect(html).toContain(`<div data-tab-panel="${other}" hidden="">`);
      const panels = html
        .split(/(?=<div data-tab-panel=)|(?=<h2 id="calendar-heading")/)
        .filter((part) => part.startsWith("<div data-tab-panel="));
      for (const panel of panels) expect(panel.match(/<h3 id="event-/g)).toHaveLength(10);
      expect(html).toMatch(new RegExp(`<a aria-current="page"[^>]*data-tab="${tab}"|<a[^>]*data-tab="${tab}"[^>]*aria-current="page"`));
    }
  });

  it("embeds no stranger's calendar: it says the events come from the sample calendar and offers its feed", async () => {
    const res = await fetch(`${server.url}/events`);
    const html = await res.text();
    expect(html).not.toContain("<iframe");
    const area = /data-testid="calendar-placeholder"[\s\S]*?<\/div>/.exec(html)?.[0] ?? "";
    expect(area).toMatch(/sample calendar/);
    expect(area).toContain('href="/api/calendar/feed.ics"');
    // Nothing to frame, so the policy allows no frames at all.
    expect(res.headers.get("content-security-policy")).toMatch(/frame-src 'none'/);
  });

  it("describes upcoming events as schema.org Event JSON-LD", async () => {
    const events = jsonLd((await page(server)).html);
    expect(events).toHaveLength(10);
    for (const event of events) {
      expect(event["@context"]).toBe("https://schema.org");
      expect(typeof event.name).toBe("string");
      expect(Date.parse(String(event.startDate))).toBeGreaterThan(Date.now() - 2 * 86_400_000);
      expect(event.organizer).toMatchObject({ "@type": "Organization" });
    }
  });
});

describe("/events backed by Google Calendar", () => {
  let fake: FakeGoogleCalendar;
  const servers: RunningServer[] = [];
  // The server reads the calendar as it starts: the scenario is set first.
  const start = async (scenario: GoogleScenario, extra: Record<string, string> = {}) => {
    fake.setScenario(scenario);
    const server = await startServer({
      ...NO_SOURCE,
      ...fake.env,
      ...extra,
    });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await fake?.close();
  });

  it("populated: upcoming soonest first, past most recent first, cancelled ones gone", async () => {
    const server = await start("normal");
    const upcoming = titles((await page(server)).html);
    expect(upcoming).toEqual(["Speaker Series: Pricing", "Founders Retreat", "Members Breakfast", "Annual Gala"]);
    const past = titles((await page(server, "?tab=past")).html);
    expect(past).toEqual(["Founder Coffee", "Member Core Group Dinner", "Founders Demo Day", "Speaker Series: Hiring your first ten"]);
    const html = (await page(server)).html;
    expect(html).toContain('href="https://calendar.google.com/calendar/ical/');
    expect(html).not.toContain(fake.apiKey);
  });

  it("embeds GOOGLE_CALENDAR_ID's calendar, in New York time, 600 px high, and lets the policy frame it", async () => {
    const server = await start("normal");
    const res = await fetch(`${server.url}/events`);
    const iframe = /<iframe[^>]*>/.exec(await res.text())?.[0] ?? "";
    const src = new URL(/src="([^"]+)"/.exec(iframe)![1]!.replace(/&amp;/g, "&"));
    expect(src.origin + src.pathname).toBe("https://calendar.google.com/calendar/embed");
    expect(src.searchParams.get("src")).toBe(fake.calendarId);
    expect(src.searchParams.get("ctz")).toBe("America/New_York");
    expect(iframe).toContain('height="600"');
    expect(iframe).toContain('loading="lazy"');
    expect(res.headers.get("content-security-policy")).toMatch(/frame-src https:\/\/calendar\.google\.com;/);
  });

  it("empty: the spec's sentence on Upcoming, a fitting one on Past", async () => {
    const server = await start("empty");
    expect((await page(server)).html).toContain("No upcoming events scheduled at this time.");
    expect((await page(server, "?tab=past")).html).toContain("No past events to show yet.");
  });

  it("error: both sentences of the spec when the calendar fails and nothing is cached", async () => {
    const server = await start("error500");
    const { status, html } = await page(server);
    expect(status).toBe(200);
    expect(html).toContain("Failed to load events from calendar.");
    expect(html).toContain("Please check back later or contact support if the issue persists.");
    expect(html).not.toContain(fake.url);
    expect(html).not.toContain(fake.apiKey);
  });

  it("slow: the page does not wait over a second for a first read; it goes out loading, uncached, and starts its scripts", async () => {
    const slow = await startFakeGoogleCalendar({ slowMs: 3_000 });
    slow.setScenario("slow");
    const server = await startServer({
      ...NO_SOURCE,
      GOOGLE_CALENDAR_ID: slow.calendarId,
      GOOGLE_API_KEY: slow.apiKey,
      GOOGLE_CALENDAR_API_URL: slow.url,
    });
    servers.push(server);
    try {
      // The read takes 3 s: an answer while it runs is the loading state (how fast, the bench measures).
      const res = await fetch(`${server.url}/events?tab=past`);
      const html = await res.text();
      expect(slow.requestCount()).toBeGreaterThan(0);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(html).toContain("Loading events...");
      expect(html).toContain("data-start-scripts");
      // Without JavaScript: how to see the list.
      expect(html).toMatch(/<noscript>.*<a href="\/events\?tab=past"[^>]*>Reload the page<\/a>/s);
      // The read goes on; once it has ended the page has the list, cacheable again.
      await expect
        .poll(async () => (await page(server, "?tab=past")).html.includes("Loading events..."), { timeout: 10_000, interval: 500 })
        .toBe(false);
      const done = await fetch(`${server.url}/events?tab=past`);
      expect(done.headers.get("cache-control")).toMatch(/^public/);
      expect(titles(await done.text()).length).toBeGreaterThan(0);
    } finally {
      await slow.close();
    }
  });

  it("stale: says when the list was last updated when the calendar fails after a good read", async () => {
    const server = await start("normal", { EVENTS_CACHE_TTL_SECONDS: "1" });
    expect(titles((await page(server)).html)).toHaveLength(4);
    fake.setScenario("error500");
    let html = "";
    const deadline = Date.now() + 20_000;
    // The first request after expiry answers at once and refreshes in the background.
    while (!html.includes("as last updated") && Date.now() < deadline) {
      html = (await page(server)).html;
      if (!html.includes("as last updated")) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(html).toContain("The calendar could not be reached just now. Showing events as last updated");
    expect(titles(html)).toHaveLength(4);
  });

  it("hostile descriptions arrive sanitized: no script, handler, iframe or javascript: URL", async () => {
    const server = await start("hostile");
    const { html } = await page(server);
    expect(titles(html)).toEqual(expect.arrayContaining(["Hostile script", "Hostile onerror", "Hostile link"]));
    const body = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(body).not.toMatch(/<script(?! type="application\/ld\+json")/);
    expect(body).not.toMatch(/\sonerror\s*=/i);
    expect(body).not.toMatch(/javascript:/i);
    expect(body).not.toMatch(/<iframe[^>]*evil/);
    expect(body).toContain("Click me");
  });
});

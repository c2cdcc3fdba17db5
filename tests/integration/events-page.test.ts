// The /events page as the server sends it (no JavaScript): every list state, from real sources.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { suiteClock } from "../support/clock";
import { endOfNewYorkDay, instantOfText, schemaEndInstant } from "../support/event-time";
import { startGate } from "../support/gate";
import { sharedServer } from "../support/shared-server";
import { NO_SOURCE } from "../support/environments";
import { startServer, type RunningServer } from "../support/start-server";
import { FAST_TIMINGS, UNTIL_MS } from "../support/timings";

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
  const server = sharedServer();

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
    // Ended by the server's now: an all-day one's New York day is over, a timed one has started.
    const now = suiteClock().now();
    for (const date of pastDates) expect(date.length === 10 ? endOfNewYorkDay(date) : Date.parse(date), date).toBeLessThanOrEqual(now);
    // Most recent first, as the site orders them.
    const instants = pastDates.map(instantOfText);
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
      // Upcoming: not yet over by the server's now.
      expect(schemaEndInstant(event), String(event.name)).toBeGreaterThan(suiteClock().now());
      expect(event.organizer).toMatchObject({ "@type": "Organization" });
    }
  });
});

describe("/events backed by Google Calendar", () => {
  let fake: FakeGoogleCalendar;
  // One server follows the fake through its scenarios: its copy is fresh for 200 ms, so each test
  // sets the calendar it needs and waits until the page shows it.
  let server: RunningServer;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
    server = await startServer({ ...NO_SOURCE, ...fake.env }, { timings: FAST_TIMINGS });
    servers.push(server);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await fake?.close();
  });

  /** The page once it shows what `shown` looks for (each answer after the copy's 200 ms may start a read). */
  async function pageShowing(search: string, shown: (html: string) => boolean): Promise<string> {
    let html = "";
    await expect
      .poll(
        async () => {
          html = (await page(server, search)).html;
          return shown(html);
        },
        { timeout: UNTIL_MS, interval: 50 },
      )
      .toBe(true);
    return html;
  }

  it("populated: upcoming soonest first, past most recent first, cancelled ones gone", async () => {
    fake.setScenario("normal");
    const upcoming = ["Speaker Series: Pricing", "Founders Retreat", "Members Breakfast", "Annual Gala"];
    const html = await pageShowing("", (h) => titles(h).join() === upcoming.join());
    const past = titles((await page(server, "?tab=past")).html);
    expect(past).toEqual(["Founder Coffee", "Member Core Group Dinner", "Founders Demo Day", "Speaker Series: Hiring your first ten"]);
    expect(html).toContain('href="https://calendar.google.com/calendar/ical/');
    expect(html).not.toContain(fake.apiKey);
  });

  it("embeds GOOGLE_CALENDAR_ID's calendar, in New York time, 600 px high, and lets the policy frame it", async () => {
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
    fake.setScenario("empty");
    await pageShowing("", (html) => html.includes("No upcoming events scheduled at this time."));
    expect((await page(server, "?tab=past")).html).toContain("No past events to show yet.");
  });

  it("error: both sentences of the spec when the calendar fails and nothing is cached", async () => {
    // Nothing cached: a server whose first read, at start-up, fails.
    const cold = await startFakeGoogleCalendar();
    cold.setScenario("error500");
    const coldServer = await startServer({ ...NO_SOURCE, ...cold.env });
    servers.push(coldServer);
    try {
      const { status, html } = await page(coldServer);
      expect(status).toBe(200);
      expect(html).toContain("Failed to load events from calendar.");
      expect(html).toContain("Please check back later or contact support if the issue persists.");
      expect(html).not.toContain(cold.url);
      expect(html).not.toContain(cold.apiKey);
    } finally {
      await cold.close();
    }
  });

  it("slow: the page does not wait over a second for a first read; it goes out loading, uncached, and starts its scripts", async () => {
    // The first read is held at a gate until the test has seen the loading state.
    const slow = await startFakeGoogleCalendar();
    const gate = await startGate(new URL(slow.url).origin);
    const slowServer = await startServer({ ...NO_SOURCE, ...slow.env, GOOGLE_CALENDAR_API_URL: `${gate.url}/calendar/v3` });
    servers.push(slowServer);
    try {
      await expect.poll(() => gate.held(), { timeout: UNTIL_MS }).toBeGreaterThan(0);
      const res = await fetch(`${slowServer.url}/events?tab=past`);
      const html = await res.text();
      expect(gate.held()).toBeGreaterThan(0);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(html).toContain("Loading events...");
      expect(html).toContain("data-start-scripts");
      // Without JavaScript: how to see the list.
      expect(html).toMatch(/<noscript>.*<a href="\/events\?tab=past"[^>]*>Reload the page<\/a>/s);
      // The read goes on; once it has ended the page has the list, cacheable again.
      gate.open();
      await expect
        .poll(async () => (await page(slowServer, "?tab=past")).html.includes("Loading events..."), { timeout: UNTIL_MS, interval: 50 })
        .toBe(false);
      const done = await fetch(`${slowServer.url}/events?tab=past`);
      expect(done.headers.get("cache-control")).toMatch(/^public/);
      expect(titles(await done.text()).length).toBeGreaterThan(0);
    } finally {
      await gate.close();
      await slow.close();
    }
  });

  it("stale: says when the list was last updated when the calendar fails after a good read", async () => {
    fake.setScenario("normal");
    await pageShowing("", (html) => titles(html).length === 4 && !html.includes("as last updated"));
    fake.setScenario("error500");
    // The first request after the copy's 200 ms answers at once and refreshes in the background.
    const html = await pageShowing("", (h) => h.includes("as last updated"));
    expect(html).toContain("The calendar could not be reached just now. Showing events as last updated");
    expect(titles(html)).toHaveLength(4);
  });

  it("hostile descriptions arrive sanitized: no script, handler, iframe or javascript: URL", async () => {
    fake.setScenario("hostile");
    const html = await pageShowing("", (h) => titles(h).includes("Hostile link") && !h.includes("as last updated"));
    expect(titles(html)).toEqual(expect.arrayContaining(["Hostile script", "Hostile onerror", "Hostile link"]));
    const body = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(body).not.toMatch(/<script(?! type="application\/ld\+json")/);
    expect(body).not.toMatch(/\sonerror\s*=/i);
    expect(body).not.toMatch(/javascript:/i);
    expect(body).not.toMatch(/<iframe[^>]*evil/);
    expect(body).toContain("Click me");
  });
});

// The built server (server.js + build/) against the fake upstreams, over real HTTP.
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventsResponse } from "~/events/model";
import { instantOf } from "~/events/time";
import { LISTED_EVENT_IDS, startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { startFakeIcsFeed, type FakeIcsFeed } from "../fakes/ics-feed";
import { suiteClock } from "../support/clock";
import { sharedServer } from "../support/shared-server";
import { NO_SOURCE } from "../support/environments";
import { startExpectingFailure, startServer, type RunningServer } from "../support/start-server";
import { FAST_TIMINGS, UNTIL_MS } from "../support/timings";

const CACHE_CONTROL = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";
// Whatever the developer's shell holds, these tests choose the source themselves.

type Answer = { status: number; headers: Headers; text: string };
async function get(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
const json = (answer: Answer) => JSON.parse(answer.text) as EventsResponse;
// As the site orders them: an all-day event from midnight in New York.
const startOf = (e: EventsResponse["events"][number]) => (e.start ? instantOf(e.start) : Infinity);

/** The parts of `bytes` between each `separator`, as bytes (a line's text may not be split). */
function splitBuffer(bytes: Buffer, separator: string): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(separator, from); at >= 0; at = bytes.indexOf(separator, from)) {
    parts.push(bytes.subarray(from, at));
    from = at + separator.length;
  }
  parts.push(bytes.subarray(from));
  return parts;
}

describe("default source: the bundled sample calendar", () => {
  const server = sharedServer();

  it("answers past and upcoming sample events, sorted, with the caching headers", async () => {
    const answer = await get(server, "/api/calendar/events");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe(CACHE_CONTROL);
    const body = json(answer);
    expect(body).toMatchObject({ stale: false, subscribeUrl: "/api/calendar/feed.ics" });
    expect(body).not.toHaveProperty("updatedAt");
    const now = suiteClock().now();
    expect(body.events.filter((e) => startOf(e) < now).length).toBeGreaterThan(5);
    expect(body.events.filter((e) => startOf(e) > now).length).toBeGreaterThan(5);
    const starts = body.events.map(startOf);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(body.events.some((e) => e.summary?.includes("Member"))).toBe(true);
  });

  it("serves the sample as a subscribable feed, valid RFC 5545 as sent: folded lines, plain-text descriptions", async () => {
    const response = await fetch(`${server.url}/api/calendar/feed.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString("utf8");
    expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    // §3.1: CRLF line ends, at most 75 octets a line, folded between characters (each line is
    // valid UTF-8 on its own).
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const lines = splitBuffer(bytes.subarray(0, -2), "\r\n");
    expect(lines.filter((line) => line.length > 75).map(String)).toEqual([]);
    for (const line of lines) expect(() => new TextDecoder("utf-8", { fatal: true }).decode(line)).not.toThrow();
    expect(lines.some((line) => line[0] === 0x20)).toBe(true); // it does fold
    expect(lines.some((line) => line.some((byte) => byte > 0x7f))).toBe(true); // and has non-ASCII text to fold around

    // The project's parser reads it; descriptions are plain text, their HTML form only in X-ALT-DESC.
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents("vevent");
    expect(events.length).toBe(5);
    const withHtml = events.filter((event) => event.hasProperty("x-alt-desc"));
    expect(withHtml.length).toBeGreaterThan(0);
    for (const event of events) {
      const description = String(event.getFirstPropertyValue("description"));
      expect(description, String(event.getFirstPropertyValue("uid"))).not.toMatch(/<\/?[a-z][^>]*>|&[a-z]+;/i);
      const alt = event.getFirstProperty("x-alt-desc");
      if (!alt) continue;
      expect(alt.getParameter("fmttype")).toBe("text/html");
      const html = ICAL.design.icalendar.value.text!.fromICAL(String(alt.getFirstValue()));
      expect(html).toMatch(/<[a-z]+[\s>]/);
      // Nothing the HTML links to is missing from the plain text.
      for (const [, href] of html.matchAll(/href="(?:mailto:)?([^"]+)"/g)) expect(description).toContain(href);
    }
  });

  it("shows the sample's HTML descriptions on the site, commas and all", async () => {
    const { events } = json(await get(server, "/api/calendar/events"));
    const dinner = events.find((e) => e.summary === "Member Core Group Dinner")!;
    expect(dinner.description).toContain("<li>6:30 pm: arrivals</li>");
    const talk = events.find((e) => e.summary === "Speaker Series Evening")!;
    expect(talk.description).toContain("operator or investor, then <i>questions from the floor</i>");
  });

  it("downloads one event as .ics, and answers 404 JSON for unknown ids", async () => {
    const { events } = json(await get(server, "/api/calendar/events"));
    const dinner = events.find((e) => e.summary === "Member Core Group Dinner")!;
    const download = await get(server, `/api/calendar/events/${dinner.id}.ics`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="member-core-group-dinner.ics"');
    expect(download.text).toMatch(
      /^BEGIN:VCALENDAR\r\n[\s\S]*BEGIN:VEVENT\r\n[\s\S]*SUMMARY:Member Core Group Dinner\r\n[\s\S]*END:VCALENDAR\r\n$/,
    );
    expect(download.text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(download.text).not.toContain("<");

    for (const path of ["/api/calendar/events/unknown-id.ics", "/api/calendar/events/%3Cscript%3E.ics"]) {
      const missing = await get(server, path);
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.text)).toEqual({ message: "No event with this id." });
    }
  });

  it("writes nothing to stderr", () => {
    expect(server.stderr()).toBe("");
  });
});

describe("Google Calendar source", () => {
  let fake: FakeGoogleCalendar;
  let server: RunningServer;
  const seen: string[] = [];
  const record = (answer: Answer) => {
    seen.push(answer.text, JSON.stringify([...answer.headers]));
    return answer;
  };

  beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
    server = await startServer({
      ...NO_SOURCE,
      ...fake.env,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("50 concurrent requests on a cold cache make exactly 1 upstream read (2 requests: upcoming, then past)", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => get(server, "/api/calendar/events")));
    answers.forEach(record);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    console.log(`[measure] upstream requests for 50 concurrent cold-cache requests: ${fake.requestCount()}`);
    expect(fake.requestCount()).toBe(2);
    expect(fake.unhandled).toEqual([]);

    const body = json(answers[0]!);
    expect(body.subscribeUrl).toBe(`https://calendar.google.com/calendar/ical/${encodeURIComponent(fake.calendarId)}/public/basic.ics`);
    // The fake holds events 400 days either side too; timeMin/timeMax leave them out, cancelled ones are dropped.
    expect(body.events.map((e) => e.id)).toEqual(LISTED_EVENT_IDS);
    expect(body.events.some((e) => e.id.startsWith("cancelled"))).toBe(false);
  });

  it("answers warm-cache requests from memory, without asking the calendar again", async () => {
    // How fast is the bench's to say (npm run bench); here, that the calendar is not asked.
    for (let i = 0; i < 100; i++) expect((await get(server, "/api/calendar/events")).status).toBe(200);
    expect(fake.requestCount()).toBe(2);
  });

  it("sends Cache-Control and an ETag, and answers 304 to If-None-Match", async () => {
    const first = record(await get(server, "/api/calendar/events"));
    expect(first.headers.get("cache-control")).toBe(CACHE_CONTROL);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^(W\/)?"[A-Za-z0-9_-]+"$/);
    const again = record(await get(server, "/api/calendar/events", { "If-None-Match": etag }));
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const gzip = await get(server, "/api/calendar/events", { "If-None-Match": etag, "Accept-Encoding": "gzip" });
    expect(gzip.status).toBe(304);
    const other = await get(server, "/api/calendar/events", { "If-None-Match": '"something-else"' });
    expect(other.status).toBe(200);
  });

  it("downloads a Google event as .ics", async () => {
    const answer = record(await get(server, "/api/calendar/events/next7.ics"));
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("SUMMARY:Speaker Series: Pricing\r\n");
    expect(answer.text).toContain("DESCRIPTION:RSVP at example.org\r\n");
  });

  it("never shows the API key: not in bodies, headers, or the server's output", () => {
    expect(seen.length).toBeGreaterThan(10);
    for (const text of seen) expect(text).not.toContain(fake.apiKey);
    expect(server.output()).not.toContain(fake.apiKey);
  });
});

describe("Google Calendar source failing", () => {
  let fake: FakeGoogleCalendar;
  let coldFake: FakeGoogleCalendar;
  let staleServer: RunningServer;
  let coldServer: RunningServer;

  beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
    // Its copy is fresh for 200 ms: the first request after that starts the refresh that fails.
    staleServer = await startServer({ ...NO_SOURCE, ...fake.env }, { timings: FAST_TIMINGS });
    // The server reads the calendar as it starts: this one's answers 404 from the start.
    coldFake = await startFakeGoogleCalendar();
    coldFake.setScenario("notFound");
    coldServer = await startServer({ ...NO_SOURCE, ...coldFake.env });
  });
  afterAll(async () => {
    await staleServer?.stop();
    await coldServer?.stop();
    await fake?.close();
    await coldFake?.close();
  });

  it("serves the last good copy (200, X-Events-Stale, stale: true) when the upstream fails after a good fetch", async () => {
    const good = await get(staleServer, "/api/calendar/events");
    expect(good.status).toBe(200);
    expect(good.headers.get("x-events-stale")).toBeNull();
    const goodBody = json(good);

    fake.setScenario("error500");

    // Expired: the old copy is answered at once while the refresh (and its retries) fail in the background.
    let answer = await get(staleServer, "/api/calendar/events");
    await expect
      .poll(
        async () => {
          answer = await get(staleServer, "/api/calendar/events");
          expect(answer.status).toBe(200);
          return answer.headers.get("x-events-stale");
        },
        { timeout: UNTIL_MS, interval: 50 },
      )
      .toBe("true");
    expect(answer.headers.get("cache-control")).toBe(CACHE_CONTROL);
    const body = json(answer);
    expect(body.stale).toBe(true);
    expect(body.events).toEqual(goodBody.events);
    // The time of the good read it comes from (the fresh answer did not say it).
    expect(goodBody).not.toHaveProperty("updatedAt");
    expect(Date.parse(body.updatedAt ?? "")).toBeLessThanOrEqual(suiteClock().now());
    expect(staleServer.output()).toContain("[events] refresh failed (Google Calendar answered HTTP 500)");
    expect(staleServer.output()).not.toContain(fake.apiKey);
  });

  it("answers 502 with a JSON sentence when nothing was ever fetched", async () => {
    const answer = await get(coldServer, "/api/calendar/events");
    expect(answer.status).toBe(502);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(answer.text)).toEqual({ message: "The events calendar is unavailable right now. Please try again later." });
    for (const leak of [coldFake.apiKey, "127.0.0.1", "googleapis", "http", " at ", "Error"]) expect(answer.text).not.toContain(leak);

    const download = await get(coldServer, "/api/calendar/events/next7.ics");
    expect(download.status).toBe(502);

    const output = coldServer.output();
    expect(output).toContain("configuration error: Google Calendar answered 404 for GOOGLE_CALENDAR_ID");
    expect(output).not.toContain(coldFake.apiKey);
    expect(output).not.toContain(coldFake.url);
  });
});

describe("iCalendar feed source", () => {
  let feed: FakeIcsFeed;
  let server: RunningServer;
  beforeAll(async () => {
    feed = await startFakeIcsFeed(["unbounded-monthly.ics"]);
    server = await startServer({ ...NO_SOURCE, CALENDAR_ICS_URL: feed.urlOf("unbounded-monthly.ics") });
  });
  afterAll(async () => {
    await server?.stop();
    await feed?.close();
  });

  it("expands the feed's rule over the 24-month window and links to the feed", async () => {
    const body = json(await get(server, "/api/calendar/events"));
    expect(body.subscribeUrl).toBe(feed.urlOf("unbounded-monthly.ics"));
    const breakfasts = body.events.filter((e) => e.summary === "Members Breakfast");
    expect(breakfasts.length).toBeGreaterThanOrEqual(24);
    expect(breakfasts.length).toBeLessThanOrEqual(25);
    expect(breakfasts[0]!.description).not.toContain("script");
    expect(feed.requestCount()).toBe(1);
  });
});

describe("start-up configuration", () => {
  // Each variable's own messages: env.server.test.ts. Here, that the process refuses to start on
  // them, naming every bad one at once (two starts: an id needs a key, a key needs an id).
  it.each([
    [
      {
        GOOGLE_CALENDAR_ID: "private-calendar-id@group.calendar.google.com",
        CALENDAR_ICS_URL: "ftp://calendar.example.org/secret-token.ics",
      },
      ["GOOGLE_API_KEY", "CALENDAR_ICS_URL"],
    ],
    [{ GOOGLE_API_KEY: "AIza-secret-value" }, ["GOOGLE_CALENDAR_ID"]],
  ])("refuses %o, naming %s without echoing values", async (env, variables) => {
    const { code, stderr } = await startExpectingFailure({ ...NO_SOURCE, ...env });
    expect(code).toBe(1);
    for (const variable of variables) expect(stderr).toContain(`  ${variable}: `);
    for (const value of Object.values(env)) expect(stderr).not.toContain(value.slice(0, 16));
  });
});

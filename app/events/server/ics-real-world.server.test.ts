// Feeds shaped like Exchange, Outlook, Google, Apple, Meetup and Zimbra exports, read through the
// real source over HTTP (the fake feed on loopback), each checked for the exact occurrences.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeIcsFeed, type FakeIcsFeed } from "../../../tests/fakes/ics-feed";
import type { CalendarEvent } from "~/events/model";
import { rejectionOf } from "../../../tests/support/rejection";
import { UpstreamError, type UpstreamOptions } from "./fetch-upstream.server";
import { fetchIcsEvents } from "./ics-source.server";
import { occurrenceId } from "./ids.server";
import { eventsWindow } from "./time.server";

const FIXTURES = [
  "exchange-moved-all-day.ics",
  "outlook-windows-zones.ics",
  "apple-bare-dates.ics",
  "google-date-forms.ics",
  "meetup-one-bad-start.ics",
  "odd-lines.ics",
];
const window = eventsWindow(new Date("2026-03-01T12:00:00Z"));
let feed: FakeIcsFeed;
let logs: string[] = [];

const options: UpstreamOptions = {
  // No answer of the fake's takes this long, however busy the machine: only the timeout's own case sets a short one.
  timeoutMs: 60_000,
  retries: 2,
  backoffMs: () => 1,
  sleep: async () => {},
  fetch: (...args) => fetch(...args),
  log: (m) => void logs.push(m),
};

beforeAll(async () => {
  feed = await startFakeIcsFeed(FIXTURES);
});
afterAll(() => feed.close());

async function read(name: string): Promise<CalendarEvent[]> {
  logs = [];
  const before = feed.requestCount();
  const events = await fetchIcsEvents(feed.urlOf(name), window, options);
  expect(feed.requestCount() - before).toBe(1);
  return events;
}

/** "title | start → end", in start order: the whole answer, exactly. */
function lines(events: CalendarEvent[]): string[] {
  const at = (t: CalendarEvent["start"]) => (t ? ("dateTime" in t ? t.dateTime + (t.timeZone ? ` ${t.timeZone}` : "") : t.date) : "none");
  return events.map((e) => `${e.summary} | ${at(e.start)} → ${at(e.end)}`).sort();
}

describe("Exchange (OWA) export: Windows zone names, an all-day occurrence moved with a date-time RECURRENCE-ID", () => {
  it("shows the moved occurrence once, on its new day, and the timed series in Berlin time", async () => {
    const events = await read("exchange-moved-all-day.ics");
    expect(lines(events)).toEqual([
      "Berlin chapter stand-up (an hour later) | 2026-03-09T05:00:00-04:00 Europe/Berlin → 2026-03-09T05:30:00-04:00 Europe/Berlin",
      "Berlin chapter stand-up | 2026-03-02T03:00:00-05:00 Europe/Berlin → 2026-03-02T03:30:00-05:00 Europe/Berlin",
      "Berlin chapter stand-up | 2026-03-16T04:00:00-04:00 Europe/Berlin → 2026-03-16T04:30:00-04:00 Europe/Berlin",
      "Berlin office open day (Friday this week) | 2026-02-27 → 2026-02-28",
      "Berlin office open day | 2026-02-05 → 2026-02-06",
      "Berlin office open day | 2026-02-12 → 2026-02-13",
      "Berlin office open day | 2026-02-19 → 2026-02-20",
      "Berlin office open day | 2026-03-05 → 2026-03-06",
      "Berlin office open day | 2026-03-12 → 2026-03-13",
    ]);
    expect(logs).toEqual([]);
  });

  it("gives the moved occurrence the id the 26th had (its RECURRENCE-ID, in the series' form)", async () => {
    const events = await read("exchange-moved-all-day.ics");
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const moved = events.find((e) => e.summary?.includes("Friday"));
    const uid = "040000008200E00074C5B7101A82E0080000000010F2A9C1D3A0DC010000000000000000100000004F1D7E2F6C8A3B4E9A1C2D3E4F5A6B7C";
    expect(moved?.id).toBe(occurrenceId(uid, "2026-02-26"));
    expect(moved?.location).toBe("Friedrichstraße 68, Berlin");
  });
});

describe("Outlook export: quoted Windows TZIDs, an EXDATE written as a bare date", () => {
  it("maps the zones to IANA and skips the excluded Monday", async () => {
    expect(lines(await read("outlook-windows-zones.ics"))).toEqual([
      "Board office hours | 2026-01-05T10:00:00-05:00 America/New_York → 2026-01-05T11:00:00-05:00 America/New_York",
      // 2026-01-12 is EXDATE:20260112
      "Board office hours | 2026-01-19T10:00:00-05:00 America/New_York → 2026-01-19T11:00:00-05:00 America/New_York",
      "Board office hours | 2026-01-26T10:00:00-05:00 America/New_York → 2026-01-26T11:00:00-05:00 America/New_York",
      "Breakfast with the Berlin chapter | 2026-06-09T03:00:00-04:00 Europe/Berlin → 2026-06-09T04:00:00-04:00 Europe/Berlin",
    ]);
    expect(logs).toEqual([]);
  });
});

describe("Apple (iCloud) export: bare dates without VALUE=DATE, DURATION, X-WR-TIMEZONE", () => {
  it("reads bare dates as all-day, DURATION for dates and times, floating times in the feed's zone", async () => {
    expect(lines(await read("apple-bare-dates.ics"))).toEqual([
      "Community founding anniversary | 2025-10-28 → 2025-10-29",
      "Community founding anniversary | 2026-10-28 → 2026-10-29",
      // DTSTART:20240215 with DURATION:PT1W is two years back: outside the window.
      "London founders' supper | 2026-04-01T13:30:00-04:00 Europe/London → 2026-04-01T15:00:00-04:00 Europe/London",
      "Pitch practice | 2026-03-10T18:00:00-04:00 America/New_York → 2026-03-10T19:30:00-04:00 America/New_York",
    ]);
    expect(logs).toEqual([]);
  });

  it("keeps a week-long bare-date event with its exclusive end when it is inside the window", async () => {
    const early = eventsWindow(new Date("2024-02-20T12:00:00Z"));
    const events = await fetchIcsEvents(feed.urlOf("apple-bare-dates.ics"), early, options);
    expect(events.find((e) => e.summary === "Founders' reading week")).toMatchObject({
      start: { date: "2024-02-15" },
      end: { date: "2024-02-22" },
    });
  });
});

describe("Google export: RDATE, EXDATE and RECURRENCE-ID in the other form than the series", () => {
  it("matches dates against date-time series and date-times against all-day series", async () => {
    expect(lines(await read("google-date-forms.ics"))).toEqual([
      "Demo week (moved day) | 2026-05-06 → 2026-05-07",
      "Demo week | 2026-05-01 → 2026-05-02",
      // 05-02 is EXDATE;TZID=…:20260502T000000, 05-03 moved by RECURRENCE-ID:20260503T040000Z
      "Demo week | 2026-05-04 → 2026-05-05",
      "Demo week | 2026-05-05 → 2026-05-06",
      "Demo week | 2026-05-10 → 2026-05-11", // RDATE written as a date-time
      "Wednesday salon (on Thursday) | 2026-04-23T19:00:00-04:00 America/New_York → 2026-04-23T20:00:00-04:00 America/New_York",
      // 04-08 is EXDATE;VALUE=DATE, 04-15 EXDATE in UTC, 04-22 moved by RECURRENCE-ID;VALUE=DATE
      "Wednesday salon | 2026-04-01T19:00:00-04:00 America/New_York → 2026-04-01T20:00:00-04:00 America/New_York",
      "Wednesday salon | 2026-04-24T19:00:00-04:00 America/New_York → 2026-04-24T20:00:00-04:00 America/New_York", // RDATE;VALUE=DATE
    ]);
    expect(logs).toEqual([]);
  });
});

describe("Meetup export: one start that is not a date among eight good events", () => {
  it("shows all nine, the odd one with its start as written", async () => {
    const events = await read("meetup-one-bad-start.ics");
    expect(events).toHaveLength(9);
    expect(events.find((e) => e.summary === "Alumni reunion")).toMatchObject({ start: { date: "Next Year" } });
    expect(events.find((e) => e.summary === "Alumni reunion")?.end).toBeUndefined();
    expect(lines(events).filter((l) => !l.startsWith("Alumni"))).toEqual([
      "Founder breakfast: fundraising | 2026-03-17T18:30:00-04:00 America/New_York → 2026-03-17T20:30:00-04:00 America/New_York",
      "Founder breakfast: hiring | 2026-03-03T18:30:00-05:00 America/New_York → 2026-03-03T20:30:00-05:00 America/New_York",
      "Members Core Group | 2026-03-10T18:30:00-04:00 America/New_York → 2026-03-10T20:30:00-04:00 America/New_York",
      "Members Core Group | 2026-03-24T18:30:00-04:00 America/New_York → 2026-03-24T20:30:00-04:00 America/New_York",
      "Open house | 2026-03-12T19:00:00-04:00 America/New_York → 2026-03-12T21:00:00-04:00 America/New_York",
      "Open studio | 2026-03-26T19:00:00-04:00 America/New_York → 2026-03-26T21:00:00-04:00 America/New_York",
      "Speaker Series: boards | 2026-03-19T19:00:00-04:00 America/New_York → 2026-03-19T21:00:00-04:00 America/New_York",
      "Speaker Series: pricing | 2026-03-05T19:00:00-05:00 America/New_York → 2026-03-05T21:00:00-05:00 America/New_York",
    ]);
    expect(logs).toEqual([
      `[events] The calendar feed has unreadable events or properties, the rest is shown: UID "event_reunion@meetup.com" (DTSTART left out)`,
    ]);
  });
});

describe("Zimbra-style feed with odd lines", () => {
  it("leaves out only what cannot be read and names each by UID, once", async () => {
    expect(lines(await read("odd-lines.ics"))).toEqual([
      "A date that does not exist | 20260230T150000Z → none",
      "A stray line inside | 2026-03-05T10:00:00-05:00 → 2026-03-05T11:00:00-05:00",
      "Daily with an unreadable EXDATE | 2026-03-06T10:00:00-05:00 → 2026-03-06T11:00:00-05:00",
      "Daily with an unreadable EXDATE | 2026-03-07T10:00:00-05:00 → 2026-03-07T11:00:00-05:00",
      "Duration nobody can read | 2026-03-03T10:00:00-05:00 → 2026-03-03T10:00:00-05:00",
      "End nobody can read | 2026-03-04T10:00:00-05:00 → 2026-03-04T10:00:00-05:00",
    ]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toBe(
      "[events] The calendar feed has unreadable events or properties, the rest is shown: " +
        [
          'UID "bad-rrule@zimbra.example" (event left out)',
          'UID "bad-duration@zimbra.example" (DURATION left out)',
          'UID "bad-dtend@zimbra.example" (DTEND left out)',
          'UID "stray-line@zimbra.example" ((not a property) left out)',
          'UID "bad-exdate@zimbra.example" (EXDATE left out)',
          'UID "february-30@zimbra.example" (DTSTART left out)',
          'UID "no-start@zimbra.example" (event left out)',
        ].join("; "),
    );
    // Never the content of what was left out.
    expect(logs[0]).not.toMatch(/SOMETIMES|about an hour|tomorrow|someday|this line/);
  });
});

describe("a feed that fails says how", () => {
  const attempt = async (timeoutMs: number) => {
    logs = [];
    const before = feed.requestCount();
    const error = await rejectionOf(fetchIcsEvents(feed.urlOf("odd-lines.ics"), window, { ...options, timeoutMs }), UpstreamError);
    return { error, requests: feed.requestCount() - before };
  };

  it.each([
    ["HTTP status", () => feed.failWith(503), "http", "The calendar feed answered HTTP 503", 3, options.timeoutMs],
    ["not iCalendar", () => feed.setFault("malformed"), "invalid-body", "The calendar feed is not iCalendar", 1, options.timeoutMs],
    ["timed out", () => feed.setFault("hang"), "timeout", "The calendar feed did not answer within 300 ms", 3, 300],
  ] as const)("%s", async (_name, arrange, kind, message, requests, timeoutMs) => {
    arrange();
    try {
      const result = await attempt(timeoutMs);
      expect(result.error).toMatchObject({ kind, message });
      expect(result.requests).toBe(requests);
      expect(logs.at(-1)).toBe(`[events] ${message} (attempt ${requests} of 3)`);
    } finally {
      feed.failWith(undefined);
      feed.setFault(undefined);
    }
  });

  it("unreachable", async () => {
    const closed = await startFakeIcsFeed(["odd-lines.ics"]);
    const address = closed.urlOf("odd-lines.ics");
    await closed.close();
    logs = [];
    const error = await rejectionOf(fetchIcsEvents(address, window, options), UpstreamError);
    expect(error.kind).toBe("network");
    expect(error.message).toMatch(/^The calendar feed could not be reached \(ECONNREFUSED\)$/);
    expect(logs).toHaveLength(3);
  });
});

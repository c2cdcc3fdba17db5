import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "~/events/model";
import { UpstreamError } from "./fetch-upstream.server";
import { feedFetchUrl, keepNewest, MAX_OCCURRENCES_PER_FEED, parseIcsEvents } from "./ics-source.server";
import { eventsWindow, startInstant } from "./time.server";
import { toZonedRfc3339, wallTimeToInstant } from "~/events/time";
import { NEW_YORK_VTIMEZONE } from "../../../tests/fixtures/moments-calendar";
import { daysBetween, dinnerStart, LONG_RUNNING_SERIES, longRunningSeriesFeed, ymd } from "../../../tests/fixtures/long-running-series";

const NOW = new Date("2026-03-01T12:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ymdOf = (ms: number) => {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};
const window = eventsWindow(NOW);
const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/${name}`, import.meta.url), "utf8");
const parse = (name: string) => parseIcsEvents(fixture(name), window);
const starts = (events: CalendarEvent[]) => events.map((e) => (e.start && "dateTime" in e.start ? e.start.dateTime : e.start?.date));

describe("parseIcsEvents: weekly RRULE with EXDATE and an override, across the DST change", () => {
  const events = parse("weekly-exdate-override.ics");

  it("expands the series, skips the EXDATE and moves the overridden occurrence", () => {
    expect(starts(events).sort()).toEqual([
      "2026-02-19T19:00:00-05:00",
      "2026-02-26T19:00:00-05:00",
      // 2026-03-05 is an EXDATE
      "2026-03-12T19:00:00-04:00", // 19:00 local on both sides of 8 March
      "2026-03-20T18:00:00-04:00", // the 19 March occurrence, moved
      "2026-03-26T19:00:00-04:00",
      "2026-04-02T19:00:00-04:00",
    ]);
  });

  it("keeps wall-clock end times and the zone", () => {
    const march12 = events.find((e) => e.start && "dateTime" in e.start && e.start.dateTime.startsWith("2026-03-12"));
    expect(march12?.end).toEqual({ dateTime: "2026-03-12T20:30:00-04:00", timeZone: "America/New_York" });
    expect(march12?.start).toEqual({ dateTime: "2026-03-12T19:00:00-04:00", timeZone: "America/New_York" });
  });

  it("uses the override's own fields and the master's for the rest", () => {
    const moved = events.find((e) => e.summary?.includes("moved"));
    expect(moved?.end).toEqual({ dateTime: "2026-03-20T19:30:00-04:00", timeZone: "America/New_York" });
    expect(moved?.location).toBe("The Library, 2 W 44th St, New York");
  });

  it("turns the plain-text description into escaped HTML with line breaks (and unfolds lines)", () => {
    expect(events[0]?.description).toBe(
      "Doors at 6:45.<br>Bring a question, not a pitch.<br>This line is long enough to be folded by the exporter.",
    );
  });

  it("gives each occurrence its own stable, URL-safe id", () => {
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(events.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parse("weekly-exdate-override.ics").map((e) => e.id)).toEqual(ids);
  });
});

describe("parseIcsEvents: New York's repeated and skipped hours, with the feed's VTIMEZONE (issue 49)", () => {
  // As Google's and Apple's exports write New York; RFC 5545 §3.3.5 reads a wall time in the hour the clocks
  // repeat as its first instant, and one in the hour they skip with the offset before the gap.
  const feed = (start: string, end: string, tzid = "America/New_York") =>
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//test//EN",
      ...NEW_YORK_VTIMEZONE.map((line) => (line.startsWith("TZID:") ? `TZID:${tzid}` : line)),
      "BEGIN:VEVENT",
      "UID:clock-change@test",
      "DTSTAMP:20260101T000000Z",
      "SUMMARY:Night shift",
      `DTSTART;TZID=${tzid}:${start}`,
      `DTEND;TZID=${tzid}:${end}`,
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\r\n");
  const read = (start: string, end: string, tzid?: string) => {
    const [event] = parseIcsEvents(feed(start, end, tzid), eventsWindow(new Date("2026-12-01T00:00:00Z")));
    return [event?.start, event?.end].map((time) => (time && "dateTime" in time ? time.dateTime : undefined));
  };

  it("reads 01:10 on the day the clocks go back as the first 01:10 (EDT)", () => {
    expect(read("20261101T003000", "20261101T011000")).toEqual(["2026-11-01T00:30:00-04:00", "2026-11-01T01:10:00-04:00"]);
  });

  it("reads 02:30 on the day the clocks spring forward with the offset before the gap (03:30 EDT)", () => {
    expect(read("20270314T023000", "20270314T040000")).toEqual(["2027-03-14T03:30:00-04:00", "2027-03-14T04:00:00-04:00"]);
  });

  it("reads a Windows zone name by its IANA zone the same way", () => {
    expect(read("20261101T013000", "20261101T023000", "Eastern Standard Time")).toEqual([
      "2026-11-01T01:30:00-04:00",
      "2026-11-01T02:30:00-05:00",
    ]);
  });
});

describe("parseIcsEvents: a rule without an end, TZID without VTIMEZONE", () => {
  const events = parse("unbounded-monthly.ics");
  const breakfasts = events.filter((e) => e.summary === "Members Breakfast");

  it("is bounded by the window: 12 months back and 12 ahead", () => {
    expect(breakfasts).toHaveLength(24);
    expect(starts(breakfasts).sort()[0]).toBe("2025-03-01T08:00:00-05:00");
    expect(starts(breakfasts).sort().at(-1)).toBe("2027-02-01T08:00:00-05:00");
    expect(starts(breakfasts)).toContain("2025-07-01T08:00:00-04:00");
  });

  it("sanitizes an HTML description", () => {
    expect(breakfasts[0]?.description).toBe(
      '<b>Members only.</b> <a href="https://members.example.org/rsvp" rel="noopener noreferrer" target="_blank">RSVP</a>',
    );
  });

  it("answers UTC times with the New York offset", () => {
    const lunch = events.find((e) => e.summary?.startsWith("Lunch talk"));
    expect(lunch?.start).toEqual({ dateTime: "2026-03-10T13:00:00-04:00" });
  });
});

describe("parseIcsEvents: five daily series since 1990 beside a weekly series from this month (issue 28)", () => {
  const logs: string[] = [];
  const events = parseIcsEvents(longRunningSeriesFeed(NOW), window, (m) => void logs.push(m));
  const s = LONG_RUNNING_SERIES;
  const startsOf = (summary: string) => events.filter((e) => e.summary === summary).map((e) => startInstant(e.start));
  /** Worked out day by day, with no rule: the starts at `hour`:`minute` in `zone` on the days `on` keeps that overlap the window. */
  const expected = (zone: string, hour: number, minute: number, lengthMs: number, on: (day: [number, number, number]) => boolean) =>
    daysBetween(window.start.getTime() - 2 * DAY, window.end.getTime() + DAY)
      .filter(on)
      .map(([year, month, day]) => wallTimeToInstant({ year, month, day, hour, minute, second: 0 }, zone))
      .filter((start) => start < window.end.getTime() && start + lengthMs > window.start.getTime());
  const weekday = ([y, m, d]: [number, number, number]) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  const today = Math.floor(NOW.getTime() / DAY) * DAY;

  it("lists all six, with nothing cut", () => {
    expect(new Set(events.map((e) => e.summary))).toEqual(
      new Set([...Object.values(s).map((x) => x.summary), `${s.reading.summary} (moved)`]),
    );
    expect(logs).toEqual([]);
  });

  it("gives each daily series every occurrence in the window", () => {
    expect(startsOf(s.standup.summary)).toEqual(expected("UTC", 14, 0, 15 * 60_000, () => true));
    const skipped = ymd(daysBetween(today + 10 * DAY, today + 10 * DAY)[0]!);
    const moved = ymd(daysBetween(today + 20 * DAY, today + 20 * DAY)[0]!);
    expect(startsOf(s.reading.summary)).toEqual(expected("America/New_York", 7, 0, HOUR, (d) => ![skipped, moved].includes(ymd(d))));
    const since = Date.UTC(1990, 0, 3) / DAY;
    expect(startsOf(s.meditation.summary)).toEqual(
      expected("America/New_York", 20, 0, 30 * 60_000, ([y, m, d]) => (Date.UTC(y, m - 1, d) / DAY - since) % 2 === 0),
    );
    expect(startsOf(s.checkIn.summary)).toEqual(expected("Europe/Berlin", 8, 30, 30 * 60_000, (d) => weekday(d) >= 1 && weekday(d) <= 5));
    const office = events.filter((e) => e.summary === s.office.summary).map((e) => e.start);
    const days = expected("America/New_York", 0, 0, DAY, () => true).map((t) => ({ date: toZonedRfc3339(t).slice(0, 10) }));
    expect(office).toEqual(days);
  });

  it("keeps the EXDATE out and the moved occurrence once, at its new time", () => {
    const moved = events.filter((e) => e.summary === `${s.reading.summary} (moved)`);
    expect(moved.map((e) => e.start)).toEqual([
      { dateTime: toZonedRfc3339(today + 20 * DAY + 12 * HOUR).slice(0, 10) + "T08:00:00-04:00", timeZone: "America/New_York" },
    ]);
  });

  it("gives the new weekly series every Thursday from its first to the window's end", () => {
    const first = wallTimeToInstant({ ...ymdOf(dinnerStart(NOW)), hour: 19, minute: 0, second: 0 }, "America/New_York");
    const thursdays = expected("America/New_York", 19, 0, 150 * 60_000, (d) => weekday(d) === 4).filter((t) => t >= first);
    expect(thursdays.length).toBeGreaterThan(50);
    expect(startsOf(s.dinner.summary)).toEqual(thursdays);
  });
});

describe("parseIcsEvents: X-ALT-DESC", () => {
  const feed = (...lines: string[]) =>
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "BEGIN:VEVENT",
      "UID:alt@example.org",
      "DTSTAMP:20260101T000000Z",
      "DTSTART:20260310T230000Z",
      ...lines,
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\r\n");

  it("prefers the HTML form, read as the TEXT Outlook writes it (commas, semicolons, newlines escaped)", () => {
    const [event] = parseIcsEvents(
      feed("DESCRIPTION:Plain\\, text", "X-ALT-DESC;FMTTYPE=text/html:<p>Hello\\, <b>founders</b>\\; welcome</p>\\n<p>Bye</p>"),
      window,
    );
    expect(event?.description).toBe("<p>Hello, <b>founders</b>; welcome</p>\n<p>Bye</p>");
  });

  it("keeps the plain DESCRIPTION when the other form is not HTML", () => {
    const [event] = parseIcsEvents(feed("DESCRIPTION:Plain\\, text", "X-ALT-DESC;FMTTYPE=text/plain:Other"), window);
    expect(event?.description).toBe("Plain, text");
  });
});

describe("parseIcsEvents: all-day events", () => {
  const events = parse("all-day.ics");
  const byTitle = (title: string) => events.filter((e) => e.summary === title);

  it("answers VALUE=DATE as dates with an exclusive end", () => {
    expect(byTitle("Demo Day")[0]).toMatchObject({ start: { date: "2026-03-04" }, end: { date: "2026-03-05" } });
    expect(byTitle("Founders Retreat")[0]).toMatchObject({ start: { date: "2026-03-20" }, end: { date: "2026-03-23" } });
    expect(byTitle("Office hours day")[0]).toMatchObject({ start: { date: "2026-04-01" }, end: { date: "2026-04-02" } });
  });

  it("expands yearly all-day rules inside the window only", () => {
    expect(starts(byTitle("Community anniversary")).sort()).toEqual(["2025-06-15", "2026-06-15"]);
  });
});

describe("parseIcsEvents: STATUS:CANCELLED", () => {
  const titles = parse("cancelled.ics").map((e) => `${e.summary} ${e.start && "dateTime" in e.start ? e.start.dateTime.slice(0, 10) : ""}`);

  it("drops cancelled events, series and single occurrences", () => {
    expect(titles.sort()).toEqual(["Monday check-in 2026-03-02", "Monday check-in 2026-03-16", "Still on 2026-03-15"]);
  });
});

describe("parseIcsEvents: bad input", () => {
  it.each(["<html>not a calendar</html>", "", "BEGIN:VCARD\r\nEND:VCARD\r\n"])("refuses %j as invalid-body", (text) => {
    let error: unknown;
    try {
      parseIcsEvents(text, window);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe("invalid-body");
  });

  it("reads webcal:// as https://", () => {
    expect(feedFetchUrl("webcal://calendar.example.org/feed.ics")).toBe("https://calendar.example.org/feed.ics");
    expect(feedFetchUrl("http://calendar.example.org/feed.ics")).toBe("http://calendar.example.org/feed.ics");
  });
});

describe("parseIcsEvents: ends written in the other form, or not at all", () => {
  const feed = (...event: string[]) =>
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Fixtures//Ends//EN",
      "BEGIN:VEVENT",
      "UID:end@fixtures.example",
      "SUMMARY:End",
      ...event,
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\r\n");
  it.each([
    [["DTSTART;VALUE=DATE:20260331"], { date: "2026-03-31" }, { date: "2026-04-01" }], // a day, across a month's end
    [["DTSTART;VALUE=DATE:20260331", "DTEND:20260402T000000Z"], { date: "2026-03-31" }, { date: "2026-04-02" }],
    [["DTSTART;VALUE=DATE:20260331", "DURATION:P2D"], { date: "2026-03-31" }, { date: "2026-04-02" }],
    [
      ["DTSTART:20260310T230000Z", "DTEND;VALUE=DATE:20260311"],
      { dateTime: "2026-03-10T19:00:00-04:00" },
      { dateTime: "2026-03-10T20:00:00-04:00" },
    ], // midnight in the start's zone (UTC)
    [["DTSTART:20260310T230000Z"], { dateTime: "2026-03-10T19:00:00-04:00" }, { dateTime: "2026-03-10T19:00:00-04:00" }],
  ])("%j", (lines, start, end) => {
    expect(parseIcsEvents(feed(...lines), window).map((e) => [e.start, e.end])).toEqual([[start, end]]);
  });
});

describe("parseIcsEvents: odd structure", () => {
  const event = (uid: string, ...extra: string[]) => [
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `SUMMARY:${uid}`,
    "DTSTART:20260310T230000Z",
    ...extra,
    "END:VEVENT",
  ];
  const calendar = (...lines: string[]) => ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Fixtures//Odd//EN", ...lines, "END:VCALENDAR"];

  it.each([
    ["blank lines", "\r\n\r\n"],
    ["spaces and a tab", "  \t"],
    ["a byte-order mark", "\uFEFF"],
    ["a byte-order mark, then a newline", "\uFEFF\n"],
  ])("reads a feed with %s before BEGIN:VCALENDAR", (_name, lead) => {
    const text = lead + calendar(...event("a")).join("\r\n");
    expect(parseIcsEvents(text, window).map((e) => e.summary)).toEqual(["a"]);
  });

  it("walks unbounded daily series from 1990 to the window at no cost to each other", () => {
    const logs: string[] = [];
    // Thirty daily series from 1990: each walked from 1990 would take about 13,600 steps.
    const series = Array.from({ length: 30 }, (_, i) => [
      "BEGIN:VEVENT",
      `UID:daily-${i}`,
      `SUMMARY:Daily ${i}`,
      "DTSTART:19900101T120000Z",
      "RRULE:FREQ=DAILY",
      "END:VEVENT",
    ]).flat();
    const events = parseIcsEvents(calendar(...series).join("\r\n"), window, (m) => void logs.push(m));
    expect(logs).toEqual([]);
    // The window is 730 days, from noon to noon: each series has its 730 noons.
    for (let i = 0; i < 30; i++) expect(events.filter((e) => e.summary === `Daily ${i}`)).toHaveLength(730);
  });

  it("shares the feed's steps between series that must be counted from their start, and names each one cut", () => {
    const logs: string[] = [];
    // COUNT must be counted from DTSTART: about 13,600 steps each to the window's end, 30 of them.
    const counted = Array.from({ length: 30 }, (_, i) => [
      "BEGIN:VEVENT",
      `UID:counted-${i}`,
      `SUMMARY:Counted ${i}`,
      "DTSTART:19900101T120000Z",
      "RRULE:FREQ=DAILY;COUNT=100000",
      "END:VEVENT",
    ]).flat();
    const weekly = ["BEGIN:VEVENT", "UID:weekly-new", "SUMMARY:Weekly", "DTSTART:20260305T230000Z", "RRULE:FREQ=WEEKLY", "END:VEVENT"];
    const events = parseIcsEvents(calendar(...counted, ...weekly).join("\r\n"), window, (m) => void logs.push(m));
    expect(events.filter((e) => e.summary === "Weekly")).toHaveLength(52);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain(`steps a series, ${MAX_OCCURRENCES_PER_FEED} in all): 30 cut short, their later occurrences left out:`);
    // Each gets an equal share of what the weekly series left.
    const share = Number(/UID "counted-0" "Counted 0" \((\d+) steps, the feed's limit\); UID "counted-1"/.exec(logs[0]!)?.[1]);
    expect(share * 30).toBeLessThanOrEqual(MAX_OCCURRENCES_PER_FEED - 52);
    expect(share * 30).toBeGreaterThan(MAX_OCCURRENCES_PER_FEED - 52 - 60);
    expect(logs[0]).toContain(`UID "counted-19" "Counted 19" (${share} steps, the feed's limit)`);
    expect(logs[0]).toMatch(/ and 10 more$/);
    expect(logs[0]).not.toContain("weekly-new");
  });

  it("keeps at most the limit of events: the soonest upcoming ones first, then the most recent past ones", () => {
    const at = (id: string, date: string): CalendarEvent => ({ id, start: { date }, end: { date } });
    const events = [at("p1", "2026-01-01"), at("p2", "2026-02-01"), at("u1", "2026-03-10"), at("u2", "2026-04-01")];
    const now = Date.parse("2026-03-01T12:00:00Z");
    expect(keepNewest(events, now, 3)).toEqual({ kept: [events[1], events[2], events[3]], leftOut: 1 });
    expect(keepNewest(events, now, 1)).toEqual({ kept: [events[2]], leftOut: 3 });
    expect(keepNewest(events, now, 4)).toEqual({ kept: events, leftOut: 0 });
  });

  it("reads VCALENDARs written one after the other", () => {
    const text = [...calendar(...event("a")), ...calendar(...event("b"))].join("\r\n");
    expect(
      parseIcsEvents(text, window)
        .map((e) => e.summary)
        .sort(),
    ).toEqual(["a", "b"]);
  });

  it("leaves out an event whose VALARM never ends, and drops a stray END", () => {
    const logs: string[] = [];
    const text = calendar(
      ...event("open-alarm", "BEGIN:VALARM", "TRIGGER:-PT15M"),
      ...event("stray-end", "END:VALARM"),
      ...event("good"),
    ).join("\r\n");
    expect(
      parseIcsEvents(text, window, (m) => void logs.push(m))
        .map((e) => e.summary)
        .sort(),
    ).toEqual(["good", "stray-end"]);
    expect(logs).toEqual([
      '[events] The calendar feed has unreadable events or properties, the rest is shown: UID "open-alarm" (event left out); UID "stray-end" (END without BEGIN left out)',
    ]);
  });
});

describe("parseIcsEvents: whatever one event holds, the feed is read", () => {
  const control = [
    "BEGIN:VEVENT",
    "UID:control@fixtures.example",
    "DTSTART;TZID=America/New_York:20260310T190000",
    "DTEND;TZID=America/New_York:20260310T200000",
    "SUMMARY:Control",
    "END:VEVENT",
  ];
  const properties = [
    "DTSTART",
    "DTEND",
    "DURATION",
    "RRULE",
    "EXDATE",
    "RDATE",
    "RECURRENCE-ID",
    "UID",
    "SUMMARY",
    "STATUS",
    "DESCRIPTION",
    "X-ALT-DESC;FMTTYPE=text/html",
    "GEO",
    "ATTENDEE",
    "SEQUENCE",
    "LAST-MODIFIED",
  ];
  const values = [
    "",
    "garbage",
    "Next Year",
    "20261399",
    "20260101T250000",
    "20260230",
    "20260101T120000Z/forever",
    ";;;",
    '"',
    "99999999T999999Z",
    "-1",
    "P",
    "PT",
    "FREQ=DAILY;UNTIL=garbage",
    "FREQ=WEEKLY;COUNT=-1",
    "FREQ=DAILY;BYDAY=XX",
    "FREQ=SECONDLY;COUNT=3",
    "FREQ=YEARLY;BYMONTH=13",
    "20260310T190000,garbage",
    "\\",
    "x".repeat(5000),
  ];
  const params = [
    "",
    ";TZID=Nowhere/Zone",
    ';TZID="W. Europe Standard Time"',
    ";VALUE=DATE",
    ";VALUE=PERIOD",
    ";VALUE=DATE-TIME",
    ";TZID=",
  ];

  it.each(properties)("an odd %s never throws, and the other events are all there", (property) => {
    for (const param of params) {
      for (const value of values) {
        const odd = [
          "BEGIN:VEVENT",
          "UID:odd@fixtures.example",
          "DTSTART:20260311T150000Z",
          "SUMMARY:Odd",
          `${property}${param}:${value}`,
          "END:VEVENT",
        ];
        if (property === "UID" || property === "DTSTART") odd.splice(property === "UID" ? 1 : 2, 1);
        const text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Fixtures//Odd//EN", ...odd, ...control, "END:VCALENDAR"].join("\r\n");
        const logs: string[] = [];
        let events: CalendarEvent[] = [];
        expect(
          () => (events = parseIcsEvents(text, window, (m) => void logs.push(m))),
          `${property}${param}:${value.slice(0, 40)}`,
        ).not.toThrow();
        const controls = events.filter((e) => e.summary === "Control");
        expect(
          controls.map((e) => e.start),
          `${property}${param}:${value.slice(0, 40)}`,
        ).toEqual([{ dateTime: "2026-03-10T19:00:00-04:00", timeZone: "America/New_York" }]);
        expect(logs.length).toBeLessThanOrEqual(1);
      }
    }
  });
});

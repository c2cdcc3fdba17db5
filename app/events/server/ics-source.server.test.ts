import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "~/events/model";
import { UpstreamError } from "./fetch-upstream.server";
import { feedFetchUrl, keepNewest, MAX_EVENTS_PER_FEED, MAX_OCCURRENCES_PER_FEED, parseIcsEvents } from "./ics-source.server";
import { eventsWindow } from "./time.server";

const NOW = new Date("2026-03-01T12:00:00Z");
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

  it("expands at most MAX_OCCURRENCES_PER_FEED occurrences in all, and says how many series it cut short", () => {
    const logs: string[] = [];
    // 30 unbounded daily series from 1990: each reaches its per-series cap long before the window.
    const series = Array.from({ length: 30 }, (_, i) => [
      "BEGIN:VEVENT",
      `UID:daily-${i}`,
      `SUMMARY:Daily ${i}`,
      "DTSTART:19900101T120000Z",
      "RRULE:FREQ=DAILY",
      "END:VEVENT",
    ]).flat();
    const events = parseIcsEvents(calendar(...series).join("\r\n"), window, (m) => void logs.push(m));
    expect(events.length).toBeLessThanOrEqual(MAX_EVENTS_PER_FEED);
    // About 13,600 steps each up to the window's end: the budget runs out in the fourth series.
    expect(logs.join("\n")).toContain(`expands to more than ${MAX_OCCURRENCES_PER_FEED} occurrences: 27 recurring events were cut short`);
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

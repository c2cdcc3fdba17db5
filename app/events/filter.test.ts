import { describe, expect, it } from "vitest";
import { endInstant, eventsForTab, eventsView } from "./filter";
import type { CalendarEvent } from "./model";

const NOW = Date.parse("2025-12-04T17:00:00Z"); // noon in New York, Thursday December 4, 2025

const events: CalendarEvent[] = [
  { id: "past-timed", start: { dateTime: "2025-12-01T19:00:00-05:00" }, end: { dateTime: "2025-12-01T21:00:00-05:00" } },
  { id: "running", start: { dateTime: "2025-12-04T11:00:00-05:00" }, end: { dateTime: "2025-12-04T13:00:00-05:00" } },
  { id: "today-all-day", start: { date: "2025-12-04" }, end: { date: "2025-12-05" } },
  { id: "yesterday-all-day", start: { date: "2025-12-03" }, end: { date: "2025-12-04" } },
  { id: "multi-day", start: { date: "2025-12-02" }, end: { date: "2025-12-06" } },
  { id: "next-week", start: { dateTime: "2025-12-11T19:00:00-05:00" }, end: { dateTime: "2025-12-11T21:00:00-05:00" } },
  { id: "no-end-all-day", start: { date: "2025-11-20" } },
  { id: "undated" },
];

describe("eventsForTab", () => {
  it("upcoming: not yet ended, soonest first, undated last", () => {
    expect(eventsForTab(events, "upcoming", NOW).map((e) => e.id)).toEqual([
      "multi-day",
      "today-all-day",
      "running",
      "next-week",
      "undated",
    ]);
  });

  it("past: ended, most recent first", () => {
    expect(eventsForTab(events, "past", NOW).map((e) => e.id)).toEqual(["yesterday-all-day", "past-timed", "no-end-all-day"]);
  });

  it("keeps an all-day event upcoming until midnight in New York at its end date", () => {
    const allDay: CalendarEvent = { id: "a", start: { date: "2025-12-04" }, end: { date: "2025-12-05" } };
    const justBefore = Date.parse("2025-12-05T04:59:59Z"); // 11:59:59 PM EST
    const midnight = Date.parse("2025-12-05T05:00:00Z");
    expect(eventsForTab([allDay], "upcoming", justBefore)).toHaveLength(1);
    expect(eventsForTab([allDay], "past", midnight)).toHaveLength(1);
  });

  it("uses the daylight-saving offset of the end date", () => {
    const summer: CalendarEvent = { id: "s", start: { date: "2026-07-04" }, end: { date: "2026-07-05" } };
    expect(endInstant(summer)).toBe(Date.parse("2026-07-05T04:00:00Z"));
    const dstStart: CalendarEvent = { id: "d", start: { date: "2026-03-07" }, end: { date: "2026-03-08" } };
    expect(endInstant(dstStart)).toBe(Date.parse("2026-03-08T05:00:00Z"));
    const dstEnd: CalendarEvent = { id: "e", start: { date: "2026-11-01" }, end: { date: "2026-11-02" } };
    expect(endInstant(dstEnd)).toBe(Date.parse("2026-11-02T05:00:00Z"));
  });

  it("does not reorder its input", () => {
    const copy = [...events];
    eventsForTab(events, "past", NOW);
    expect(events).toEqual(copy);
  });
});

describe("eventsView", () => {
  const response = { events, stale: true, updatedAt: "2025-12-04T16:00:00Z", subscribeUrl: "https://example.org/feed.ics" };

  it("keeps the tab's first `limit` events and counts the whole tab", () => {
    const view = eventsView(response, "upcoming", NOW, 2);
    expect(view.events.map((e) => e.id)).toEqual(["multi-day", "today-all-day"]);
    expect(view.total).toBe(5);
    expect(view).toMatchObject({ stale: true, updatedAt: response.updatedAt, subscribeUrl: response.subscribeUrl });
  });

  it("shows every event of the tab without a limit", () => {
    const view = eventsView(response, "past", NOW, Number.POSITIVE_INFINITY);
    expect(view.events.map((e) => e.id)).toEqual(["yesterday-all-day", "past-timed", "no-end-all-day"]);
    expect(view.total).toBe(3);
  });
});

import { describe, expect, it } from "vitest";
import { archiveOf, archivePage, monthPagePath, PAGE_SIZE, pagePathOf } from "./archive";
import type { CalendarEvent } from "./model";

/** `count` events on the first days of a month, in date order. */
const month = (key: string, count: number): CalendarEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${key}-${i}`,
    start: { dateTime: `${key}-${String(1 + (i % 28)).padStart(2, "0")}T19:00:00-05:00` },
  }));

const events: CalendarEvent[] = [
  ...month("2025-12", 3),
  // 01:30 UTC on January 1 is still December 31 in New York.
  { id: "new-year-eve", start: { dateTime: "2026-01-01T01:30:00Z" } },
  { id: "all-day", start: { date: "2026-01-15" }, end: { date: "2026-01-16" } },
  ...month("2026-03", PAGE_SIZE * 2 + 1),
  { id: "no-date" },
  { id: "bad-date", start: { dateTime: "Next Year" } },
];

describe("the archive", () => {
  const archive = archiveOf(events);

  it("lists the months with events newest first, each with its count and parts, the undated last", () => {
    expect(archive.months).toEqual([
      { key: "2026-03", label: "March 2026", count: 101, parts: 3 },
      { key: "2026-01", label: "January 2026", count: 1, parts: 1 },
      { key: "2025-12", label: "December 2025", count: 4, parts: 1 },
      { key: "undated", label: "Date to be announced", count: 2, parts: 1 },
    ]);
    expect(archive.events.get("2025-12")?.map((e) => e.id)).toEqual(["2025-12-0", "2025-12-1", "2025-12-2", "new-year-eve"]);
  });

  it("puts every event on exactly one page", () => {
    const listed = archive.months.flatMap((m) =>
      Array.from({ length: m.parts }, (_, i) => archivePage(archive, m.key, i === 0 ? undefined : String(i + 1))!.events),
    );
    expect(listed.flat().map((e) => e.id)).toEqual(expect.arrayContaining(events.map((e) => e.id)));
    expect(listed.flat()).toHaveLength(events.length);
    for (const page of listed) expect(page.length).toBeLessThanOrEqual(PAGE_SIZE);
  });

  it("is made once per calendar copy", () => {
    expect(archiveOf(events)).toBe(archive);
  });

  it.each([
    ["2026-03", undefined, 1, PAGE_SIZE],
    ["2026-03", "2", 2, PAGE_SIZE],
    ["2026-03", "3", 3, 1],
    ["undated", undefined, 1, 2],
  ])("/events/month/%s/%s is part %d with %d events", (key, part, number, count) => {
    const page = archivePage(archive, key, part);
    expect(page?.part).toBe(number);
    expect(page?.events).toHaveLength(count);
  });

  it.each([
    // A month without events, outside the window, or written otherwise; the first part's second address; parts past the last.
    ["2026-02", undefined],
    ["2031-01", undefined],
    ["2026-3", undefined],
    ["2026-13", undefined],
    ["202603", undefined],
    ["2026-03", "1"],
    ["2026-03", "02"],
    ["2026-03", "4"],
    ["2026-03", "0"],
    ["2026-03", "2x"],
    ["2026-03", "+2"],
    ["2026-01", "2"],
    [undefined, undefined],
  ])("%s part %s is no page", (key, part) => {
    expect(archivePage(archive, key, part)).toBeUndefined();
  });

  it("gives each page one address, and the page that lists an event", () => {
    expect(monthPagePath("2026-03")).toBe("/events/month/2026-03");
    expect(monthPagePath("2026-03", 1)).toBe("/events/month/2026-03");
    expect(monthPagePath("2026-03", 3)).toBe("/events/month/2026-03/3");
    const march = archive.events.get("2026-03")!;
    expect(pagePathOf(archive, march[0]!)).toBe("/events/month/2026-03");
    expect(pagePathOf(archive, march[PAGE_SIZE]!)).toBe("/events/month/2026-03/2");
    expect(pagePathOf(archive, events.at(-1)!)).toBe("/events/month/undated");
  });
});

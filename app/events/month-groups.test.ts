import { describe, expect, it } from "vitest";
import { dateBlock, groupByMonth, monthKeyOf, monthLabel } from "./month-groups";

describe("dateBlock", () => {
  it.each([
    // 01:30 UTC on Dec 1 is still November 30 in New York.
    [
      { id: "a", start: { dateTime: "2026-12-01T01:30:00Z" } },
      { weekday: "Mon", day: "30", time: "8:30 PM EST" },
    ],
    [
      { id: "b", start: { date: "2026-12-04" } },
      { weekday: "Fri", day: "4" },
    ],
    [{ id: "c", start: { dateTime: "not-a-date" } }, undefined],
    [{ id: "d" }, undefined],
  ])("%j → %j", (event, block) => {
    expect(dateBlock(event)).toEqual(block);
  });
});

describe("groupByMonth", () => {
  it("groups by New York month in the list's order, undated ones apart", () => {
    const groups = groupByMonth([
      { id: "1", start: { dateTime: "2026-11-30T23:00:00-05:00" } },
      { id: "2", start: { dateTime: "2026-12-01T04:30:00Z" } },
      { id: "3", start: { date: "2026-12-31" } },
      { id: "4", start: { date: "2027-01-01" } },
      { id: "5" },
    ]);
    expect(groups.map((g) => [g.key, g.label, g.events.map((e) => e.id)])).toEqual([
      ["2026-11", "November 2026", ["1", "2"]],
      ["2026-12", "December 2026", ["3"]],
      ["2027-01", "January 2027", ["4"]],
      ["undated", "Date to be announced", ["5"]],
    ]);
  });
});

describe("monthKeyOf and monthLabel", () => {
  it.each([
    [{ id: "a", start: { dateTime: "2026-03-15T19:00:00-04:00" } }, "2026-03"],
    // Near a month's turn the zone decides: still February in New York, already March in UTC.
    [{ id: "b", start: { dateTime: "2026-03-01T04:30:00Z" } }, "2026-02"],
    [{ id: "c", start: { dateTime: "2026-03-01T05:30:00Z" } }, "2026-03"],
    [{ id: "d", start: { dateTime: "2026-11-01T03:30:00Z" } }, "2026-10"],
    [{ id: "e", start: { date: "2026-12-31" } }, "2026-12"],
    [{ id: "f", start: { date: "2026-02-30" } }, "undated"],
    [{ id: "g", start: { dateTime: "soon" } }, "undated"],
    [{ id: "h" }, "undated"],
  ])("%j → %s", (event, key) => {
    expect(monthKeyOf(event)).toBe(key);
  });

  it.each([
    ["2026-03", "March 2026"],
    ["undated", "Date to be announced"],
    ["2026-13", undefined],
    ["26-03", undefined],
  ])("%s → %s", (key, label) => {
    expect(monthLabel(key)).toBe(label);
  });
});

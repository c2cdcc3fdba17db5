import { describe, expect, it } from "vitest";
import { eventsWindow, offsetMinutes, startInstant, toZonedRfc3339, wallTimeToInstant } from "./time.server";

const wall = (s: string) => {
  const [d, t = "00:00:00"] = s.split("T");
  const [year, month, day] = d!.split("-").map(Number);
  const [hour, minute, second] = t.split(":").map(Number);
  return { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second! };
};

describe("toZonedRfc3339", () => {
  it.each([
    ["2026-03-08T23:00:00Z", "2026-03-08T19:00:00-04:00"], // first evening of daylight time
    ["2026-03-07T23:00:00Z", "2026-03-07T18:00:00-05:00"],
    ["2026-11-01T05:30:00Z", "2026-11-01T01:30:00-04:00"],
    ["2026-11-01T06:30:00Z", "2026-11-01T01:30:00-05:00"],
    ["2026-01-01T04:59:59Z", "2025-12-31T23:59:59-05:00"],
  ])("%s is %s in New York", (utc, expected) => {
    expect(toZonedRfc3339(Date.parse(utc))).toBe(expected);
  });

  it("formats other zones, including half-hour offsets", () => {
    expect(toZonedRfc3339(Date.parse("2026-06-01T12:00:00Z"), "Asia/Kolkata")).toBe("2026-06-01T17:30:00+05:30");
    expect(toZonedRfc3339(Date.parse("2026-06-01T12:00:00Z"), "UTC")).toBe("2026-06-01T12:00:00+00:00");
    expect(offsetMinutes(Date.parse("2026-01-15T12:00:00Z"), "America/St_Johns")).toBe(-210);
  });
});

describe("wallTimeToInstant", () => {
  it.each([
    ["2026-03-08T19:00:00", "2026-03-08T23:00:00.000Z"],
    ["2026-03-07T19:00:00", "2026-03-08T00:00:00.000Z"],
    ["2026-03-08T02:30:00", "2026-03-08T07:30:00.000Z"], // skipped hour: 03:30 EDT
    ["2026-11-01T01:30:00", "2026-11-01T05:30:00.000Z"], // repeated hour: the first one
  ])("%s in New York is %s", (local, utc) => {
    expect(new Date(wallTimeToInstant(wall(local), "America/New_York")).toISOString()).toBe(utc);
  });
});

describe("eventsWindow and startInstant", () => {
  it("spans 12 months either side", () => {
    const { start, end } = eventsWindow(new Date("2026-11-21T12:00:00Z"));
    expect(start.toISOString()).toBe("2025-11-21T12:00:00.000Z");
    expect(end.toISOString()).toBe("2027-11-21T12:00:00.000Z");
  });

  it("orders an all-day date at New York midnight, not UTC midnight", () => {
    expect(new Date(startInstant({ date: "2025-12-04" })).toISOString()).toBe("2025-12-04T05:00:00.000Z");
    expect(startInstant({ dateTime: "2025-12-04T00:30:00-05:00" })).toBeGreaterThan(startInstant({ date: "2025-12-04" }));
    expect(startInstant(undefined)).toBe(Number.POSITIVE_INFINITY);
  });
});

import { describe, expect, it } from "vitest";
import { offsetMinutes, toZonedRfc3339, wallTimeToInstant } from "~/events/time";
import { eventsWindow, startInstant } from "./time.server";

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

describe("offsets kept per day agree with Intl at every minute around each change", () => {
  // The per-day cache must not carry one side of a change into the other.
  const intlOffset = (instant: number, timeZone: string) => {
    const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
      .formatToParts(instant)
      .find((p) => p.type === "timeZoneName")!.value;
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  };
  it.each([
    ["America/New_York", "2026-03-08T00:00:00Z"],
    ["America/New_York", "2026-11-01T00:00:00Z"],
    ["Europe/Berlin", "2026-03-29T00:00:00Z"],
    ["Australia/Lord_Howe", "2026-04-04T12:00:00Z"], // a half-hour change
    ["Asia/Kolkata", "2026-06-01T00:00:00Z"],
  ])("%s from %s, over 36 hours", (zone, from) => {
    // Visit the day's ends first, as a series would, then every minute.
    const start = Date.parse(from);
    for (const t of [start, start + 86_399_000]) offsetMinutes(t, zone);
    for (let t = start; t < start + 36 * 3_600_000; t += 60_000) {
      expect(offsetMinutes(t, zone), new Date(t).toISOString()).toBe(intlOffset(t, zone));
    }
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

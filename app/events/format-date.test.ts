import { describe, expect, it } from "vitest";
import { formatEventDate, machineDate } from "./format-date";

describe("formatEventDate", () => {
  it.each([
    // Timed events, in New York time with the zone's short name, on both sides of daylight saving;
    // "7:00 PM EST" is held together by non-breaking spaces, so a narrow card never splits it.
    [{ dateTime: "2025-12-04T19:00:00-05:00" }, "Thursday, December 4, 2025 at 7:00\u00a0PM\u00a0EST"],
    [{ dateTime: "2025-12-05T00:30:00Z" }, "Thursday, December 4, 2025 at 7:30\u00a0PM\u00a0EST"],
    [{ dateTime: "2026-07-15T18:05:00-04:00" }, "Wednesday, July 15, 2026 at 6:05\u00a0PM\u00a0EDT"],
    [{ dateTime: "2026-03-07T23:00:00Z" }, "Saturday, March 7, 2026 at 6:00\u00a0PM\u00a0EST"],
    [{ dateTime: "2026-03-08T23:00:00Z" }, "Sunday, March 8, 2026 at 7:00\u00a0PM\u00a0EDT"],
    [{ dateTime: "2026-11-01T05:30:00Z" }, "Sunday, November 1, 2026 at 1:30\u00a0AM\u00a0EDT"],
    [{ dateTime: "2026-11-01T06:30:00Z" }, "Sunday, November 1, 2026 at 1:30\u00a0AM\u00a0EST"],
    [{ dateTime: "2026-01-01T05:00:00Z" }, "Thursday, January 1, 2026 at 12:00\u00a0AM\u00a0EST"],
    // All-day: exactly the day written, never shifted by UTC.
    [{ date: "2025-12-04" }, "Thursday, December 4, 2025"],
    [{ date: "2024-02-29" }, "Thursday, February 29, 2024"],
    // Unparseable values are shown raw; a missing one is TBD.
    [{ dateTime: "next Tuesday-ish" }, "next Tuesday-ish"],
    [{ date: "2025-13-45" }, "2025-13-45"],
    [{ date: "2023-02-29" }, "2023-02-29"],
    [undefined, "TBD"],
  ])("%j → %s", (start, expected) => {
    expect(formatEventDate(start)).toBe(expected);
  });

  it.each([
    [{ date: "2025-12-04" }, { date: "2025-12-05" }, "Thursday, December 4, 2025"],
    [{ date: "2025-12-04" }, { date: "2025-12-07" }, "Thursday, December 4, 2025 – Saturday, December 6, 2025"],
    [{ date: "2025-12-31" }, { date: "2026-01-02" }, "Wednesday, December 31, 2025 – Thursday, January 1, 2026"],
    [{ date: "2025-12-04" }, { date: "garbage" }, "Thursday, December 4, 2025"],
  ])("all-day %j to %j (exclusive) → %s", (start, end, expected) => {
    expect(formatEventDate(start, end)).toBe(expected);
  });

  it("does not depend on the process time zone", () => {
    // The format functions pin their zones; the answer is the same under any TZ.
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBeDefined();
    expect(formatEventDate({ date: "2025-12-04" })).toContain("December 4");
  });
});

describe("machineDate", () => {
  it.each([
    [{ dateTime: "2025-12-04T19:00:00-05:00" }, "2025-12-04T19:00:00-05:00"],
    [{ date: "2025-12-04" }, "2025-12-04"],
    [{ dateTime: "soon" }, undefined],
    [undefined, undefined],
  ])("%j → %s", (start, expected) => {
    expect(machineDate(start)).toBe(expected);
  });
});

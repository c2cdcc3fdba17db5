import { describe, expect, it } from "vitest";
import { eventJsonLd } from "./json-ld";

const organizer = { name: "Founders Circle", url: "https://example.org" };

describe("eventJsonLd", () => {
  it("leaves out events without a readable start, and an end that cannot be read", () => {
    const items = eventJsonLd(
      [
        { id: "a", summary: "Dinner", start: { dateTime: "2026-03-10T19:00:00-04:00" }, end: { dateTime: "not-a-real-date" } },
        { id: "b", summary: "Reunion", start: { date: "Next Year" } },
        { id: "c", summary: "Raw", start: { dateTime: "not-a-real-date" } },
        { id: "d", summary: "Undated" },
      ],
      organizer,
    ) as { name: string; startDate: string; endDate?: string }[];
    expect(items.map((i) => [i.name, i.startDate, i.endDate])).toEqual([["Dinner", "2026-03-10T19:00:00-04:00", undefined]]);
  });
});

import { describe, expect, it } from "vitest";
import { eventJsonLd, oneEventJsonLd } from "./json-ld";

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

describe("oneEventJsonLd", () => {
  it("points the event at its own page and image, with offsets, and the description's lines kept", () => {
    const item = oneEventJsonLd(
      {
        id: "abc_1",
        summary: "Member Core Group Dinner",
        descriptionText: "Dinner with your facilitator.\n\n• 6:30 pm drinks",
        location: "2 W 44th St, New York, NY",
        start: { dateTime: "2026-01-15T23:30:00Z" },
        end: { dateTime: "2026-01-16T01:30:00Z" },
      },
      organizer,
    ) as Record<string, unknown>;
    expect(item).toMatchObject({
      "@type": "Event",
      name: "Member Core Group Dinner",
      startDate: "2026-01-15T18:30:00-05:00",
      endDate: "2026-01-15T20:30:00-05:00",
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      location: { "@type": "Place", name: "2 W 44th St, New York, NY" },
      description: "Dinner with your facilitator.\n\n• 6:30 pm drinks",
      organizer: { "@type": "Organization", name: "Founders Circle", url: "https://example.org" },
      url: "https://example.org/events/abc_1",
      image: ["https://example.org/events/abc_1/og.png"],
    });
  });

  it("keeps an all-day date as written and names an online event's place virtual", () => {
    const item = oneEventJsonLd({ id: "d", start: { date: "2026-07-04" }, location: "Online (link sent after RSVP)" }, organizer) as Record<
      string,
      unknown
    >;
    expect(item.startDate).toBe("2026-07-04");
    expect(item.name).toBe("Untitled Event");
    expect(item.location).toEqual({
      "@type": "VirtualLocation",
      name: "Online (link sent after RSVP)",
      url: "https://example.org/events/d",
    });
    expect(item.eventAttendanceMode).toBe("https://schema.org/OnlineEventAttendanceMode");
  });

  it.each([
    ["a three-day retreat", { date: "2026-11-17" }, { date: "2026-11-20" }, "2026-11-19"],
    ["a one-day Demo Day", { date: "2026-12-15" }, { date: "2026-12-16" }, "2026-12-15"],
    ["a day without an end", { date: "2026-12-15" }, undefined, "2026-12-15"],
    ["an end before the start (a calendar's mistake)", { date: "2026-12-15" }, { date: "2026-12-14" }, "2026-12-15"],
    ["an event over New Year", { date: "2026-12-31" }, { date: "2027-01-02" }, "2027-01-01"],
  ])("ends %s on its last day, inclusive as schema.org reads it", (_, start, end, endDate) => {
    const item = oneEventJsonLd({ id: "r", start, ...(end ? { end } : {}) }, organizer) as Record<string, unknown>;
    expect([item.startDate, item.endDate]).toEqual([start.date, endDate]);
  });

  it("gives a summer instant New York's daylight offset", () => {
    const item = oneEventJsonLd({ id: "s", start: { dateTime: "2026-07-01T22:00:00Z" } }, organizer) as Record<string, unknown>;
    expect(item.startDate).toBe("2026-07-01T18:00:00-04:00");
  });
});

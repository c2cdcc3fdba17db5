import { describe, expect, it } from "vitest";
import { eventJsonLd } from "./json-ld";
import { googleCalendarUrl, eventIcsPath, mapSearchUrl } from "./links";

describe("googleCalendarUrl", () => {
  const params = (url: string | undefined) => new URL(url!).searchParams;

  it("uses UTC instants for timed events", () => {
    const url = googleCalendarUrl(
      {
        id: "1",
        start: { dateTime: "2025-12-04T19:00:00-05:00" },
        end: { dateTime: "2025-12-04T21:00:00-05:00" },
        location: "NYC",
        descriptionText: "Hi",
      },
      "Dinner",
    );
    expect(url).toMatch(/^https:\/\/calendar\.google\.com\/calendar\/render\?/);
    expect(params(url).get("dates")).toBe("20251205T000000Z/20251205T020000Z");
    expect(params(url).get("text")).toBe("Dinner");
    expect(params(url).get("details")).toBe("Hi");
    expect(params(url).get("location")).toBe("NYC");
  });

  it("defaults a timed event without an end to one hour", () => {
    const url = googleCalendarUrl({ id: "1", start: { dateTime: "2025-12-04T19:00:00Z" } }, "x");
    expect(params(url).get("dates")).toBe("20251204T190000Z/20251204T200000Z");
  });

  it("uses dates for all-day events, end exclusive", () => {
    expect(params(googleCalendarUrl({ id: "1", start: { date: "2025-12-04" }, end: { date: "2025-12-07" } }, "x")).get("dates")).toBe(
      "20251204/20251207",
    );
    expect(params(googleCalendarUrl({ id: "1", start: { date: "2025-12-31" } }, "x")).get("dates")).toBe("20251231/20260101");
  });

  it("gives no link without a usable date", () => {
    expect(googleCalendarUrl({ id: "1" }, "x")).toBeUndefined();
    expect(googleCalendarUrl({ id: "1", start: { dateTime: "whenever" } }, "x")).toBeUndefined();
  });
});

describe("links", () => {
  it("searches maps for a location", () => {
    expect(mapSearchUrl("Low Library, 535 W 116th St")).toBe(
      "https://www.google.com/maps/search/?api=1&query=Low%20Library%2C%20535%20W%20116th%20St",
    );
  });

  it("encodes ids in the .ics path", () => {
    expect(eventIcsPath("abc/def")).toBe("/api/calendar/events/abc%2Fdef.ics");
  });
});

describe("event JSON-LD", () => {
  const organizer = { name: "Founders Circle", url: "https://founders.example.org" };

  it("describes timed, in-person events", () => {
    const [ld] = eventJsonLd(
      [
        {
          id: "1",
          summary: "Dinner",
          start: { dateTime: "2025-12-04T19:00:00-05:00" },
          end: { dateTime: "2025-12-04T21:00:00-05:00" },
          location: "The Club, New York",
        },
      ],
      organizer,
    );
    expect(ld).toMatchObject({
      "@type": "Event",
      name: "Dinner",
      startDate: "2025-12-04T19:00:00-05:00",
      endDate: "2025-12-04T21:00:00-05:00",
      location: { "@type": "Place", name: "The Club, New York" },
      organizer: { "@type": "Organization", name: "Founders Circle" },
    });
  });

  it("marks URL locations as online and skips undated events", () => {
    const lds = eventJsonLd(
      [{ id: "1", summary: "Webinar", start: { date: "2025-12-04" }, location: "https://meet.example.org/x" }, { id: "2" }],
      organizer,
    );
    expect(lds).toHaveLength(1);
    expect(lds[0]).toMatchObject({
      location: { "@type": "VirtualLocation" },
      eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
    });
  });

  it("marks an 'Online …' location without a link as online, pointing at its own page", () => {
    const [ld] = eventJsonLd(
      [{ id: "1", summary: "Coffee", start: { date: "2025-12-04" }, location: "Online (link sent after RSVP)" }],
      organizer,
    );
    expect(ld).toMatchObject({
      eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
      location: { "@type": "VirtualLocation", name: "Online (link sent after RSVP)", url: "https://founders.example.org/events/1" },
    });
  });
});

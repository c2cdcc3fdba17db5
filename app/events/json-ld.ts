import type { CalendarEvent } from "./model";
import { eventTitle } from "./classify";
import { htmlToText } from "./html-text";
import { instantOf } from "./time";

type Organizer = { name: string; url: string };

/** schema.org Event objects for structured data. */
export function eventJsonLd(events: CalendarEvent[], organizer: Organizer): object[] {
  return events
    // A start kept as written (unparseable) is no schema.org date: such events are left out.
    .filter((e) => !Number.isNaN(instantOf(e.start)))
    .map((event) => {
      const start = event.start!;
      const startDate = "dateTime" in start ? start.dateTime : start.date;
      const endDate = event.end && !Number.isNaN(instantOf(event.end)) ? ("dateTime" in event.end ? event.end.dateTime : event.end.date) : undefined;
      const description = htmlToText(event.description);
      const joinUrl = event.location !== undefined && /^https?:\/\//.test(event.location);
      // "Online (link sent after RSVP)" is not a street address: an online event whose details are on our page.
      const online = joinUrl || (event.location !== undefined && /^(online|virtual)\b/i.test(event.location));
      return {
        "@context": "https://schema.org",
        "@type": "Event",
        name: eventTitle(event),
        startDate,
        ...(endDate ? { endDate } : {}),
        eventStatus: "https://schema.org/EventScheduled",
        ...(event.location
          ? online
            ? {
                eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
                location: joinUrl
                  ? { "@type": "VirtualLocation", url: event.location }
                  : { "@type": "VirtualLocation", name: event.location, url: `${organizer.url}/events` },
              }
            : {
                eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
                location: { "@type": "Place", name: event.location, address: event.location },
              }
          : {}),
        ...(description ? { description } : {}),
        organizer: { "@type": "Organization", name: organizer.name, url: organizer.url },
        url: `${organizer.url}/events`,
      };
    });
}

import type { CalendarEvent, EventTime, ListEvent } from "./model";
import { eventTitle } from "./classify";
import { eventImagePath, eventPagePath } from "./links";
import { instantOf, lastDayOf, toZonedRfc3339 } from "./time";

type Organizer = { name: string; url: string };

/** schema.org's date for an event time: an all-day date as written, an instant with New York's offset. */
function schemaDate(time: EventTime | undefined): string | undefined {
  const instant = instantOf(time);
  if (!time || Number.isNaN(instant)) return undefined;
  return "date" in time ? time.date : toZonedRfc3339(instant);
}

/**
 * schema.org's end: the last day of an all-day event (the calendar's end date is the day after,
 * exclusive; schema.org's and Google's is inclusive), so a one-day event ends the day it starts;
 * a timed end as an instant with New York's offset.
 */
function schemaEndDate(start: EventTime, startDate: string, end: EventTime | undefined): string | undefined {
  return "date" in start && (!end || "date" in end) ? lastDayOf(startDate, end) : schemaDate(end);
}

/** True when an event can be structured data: schema.org needs a readable start. */
export function hasSchemaDate(event: Pick<CalendarEvent, "start">): boolean {
  return schemaDate(event.start) !== undefined;
}

/**
 * One schema.org Event, pointing at its own page and share image; undefined without a readable start.
 * Its description: the event's text on its own page, the lists' excerpt on a list.
 */
export function oneEventJsonLd(event: CalendarEvent | ListEvent, organizer: Organizer): object | undefined {
  const startDate = schemaDate(event.start);
  if (!event.start || !startDate) return undefined;
  const endDate = schemaEndDate(event.start, startDate, event.end);
  const description = "excerpt" in event ? event.excerpt : "descriptionText" in event ? event.descriptionText : undefined;
  const page = `${organizer.url}${eventPagePath(event.id)}`;
  const joinUrl = event.location !== undefined && /^https?:\/\//i.test(event.location);
  // "Online (link sent after RSVP)" is not a street address: an online event whose details are on its page.
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
              : { "@type": "VirtualLocation", name: event.location, url: page },
          }
        : {
            eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
            location: { "@type": "Place", name: event.location, address: event.location },
          }
      : {}),
    ...(description ? { description } : {}),
    image: [`${organizer.url}${eventImagePath(event.id)}`],
    organizer: { "@type": "Organization", name: organizer.name, url: organizer.url },
    url: page,
  };
}

/** schema.org Event objects for structured data; events without a readable start are left out. */
export function eventJsonLd(events: readonly (CalendarEvent | ListEvent)[], organizer: Organizer): object[] {
  return events.flatMap((event) => oneEventJsonLd(event, organizer) ?? []);
}

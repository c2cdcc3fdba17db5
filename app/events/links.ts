import type { CalendarEvent, EventTime } from "./model";
import { EVENTS_TIME_ZONE, instantOf, parseDateOnly } from "./time";

export function mapSearchUrl(location: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(location)}`;
}

// Browser-safe paths of the events API (no server code here).
export const EVENTS_API_PATH = "/api/calendar/events";

/** Our server's one-event .ics download (ids are URL-safe; encoded anyway). */
export function eventIcsPath(id: string): string {
  return `${EVENTS_API_PATH}/${encodeURIComponent(id)}.ics`;
}

/** The event's own page (ids are URL-safe; encoded anyway). */
export function eventPagePath(id: string): string {
  return `/events/${encodeURIComponent(id)}`;
}

/** The event's 1200×630 share image (og:image), made on the server. */
export function eventImagePath(id: string): string {
  return `${eventPagePath(id)}/og.png`;
}

/** The bundled sample calendar as a subscribable feed (used when no source is configured). */
export const SAMPLE_FEED_PATH = "/api/calendar/feed.ics";

function basicUtc(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

function googleDates(start: EventTime, end: EventTime | undefined): string | undefined {
  if ("date" in start) {
    const first = parseDateOnly(start.date);
    if (!first) return undefined;
    const compact = (d: { year: number; month: number; day: number }) =>
      new Date(Date.UTC(d.year, d.month - 1, d.day)).toISOString().slice(0, 10).replace(/-/g, "");
    const last = end && "date" in end ? parseDateOnly(end.date) : undefined;
    return `${compact(first)}/${compact(last ?? { ...first, day: first.day + 1 })}`;
  }
  const from = instantOf(start);
  if (Number.isNaN(from)) return undefined;
  const to = instantOf(end);
  return `${basicUtc(from)}/${basicUtc(Number.isNaN(to) ? from + 60 * 60 * 1000 : to)}`;
}

/** A Google Calendar "add event" link, or undefined when the event has no usable date. */
export function googleCalendarUrl(event: CalendarEvent, title: string): string | undefined {
  if (!event.start) return undefined;
  const dates = googleDates(event.start, event.end);
  if (!dates) return undefined;
  const params = new URLSearchParams({ action: "TEMPLATE", text: title, dates, ctz: EVENTS_TIME_ZONE });
  if (event.descriptionText) params.set("details", event.descriptionText);
  if (event.location) params.set("location", event.location);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

// The events feature's data shapes, shared by server and browser.

/**
 * A start or end as Google Calendar gives it: a timed instant (RFC 3339) or an all-day date
 * (YYYY-MM-DD). When the source's value cannot be parsed, `dateTime` or `date` holds it exactly as
 * written (spec §8: the page shows the raw value); `instantOf` in ./time is NaN for it.
 */
export type EventTime = { dateTime: string; timeZone?: string } | { date: string };

/** A link the organisers put in an event's description: http(s) or mailto only. */
export type DescriptionLink = { href: string; text: string };

/**
 * One event as /api/calendar/events answers it (spec §3, §7). Its description is converted once,
 * when the calendar is read (events/server/description.server.ts), to sanitized HTML: `description`.
 * `descriptionText` (the same as plain text) and `descriptionLinks` (the links in it) are read from
 * that HTML only for the events a page shows (withDescriptionText); the API and the copy hold neither.
 */
export type CalendarEvent = {
  id: string;
  summary?: string;
  description?: string;
  descriptionText?: string;
  descriptionLinks?: DescriptionLink[];
  location?: string;
  start?: EventTime;
  end?: EventTime;
  /** ISO instant the source last changed the event (Google's `updated`, iCalendar's LAST-MODIFIED), when it says. */
  updated?: string;
};

/**
 * An event as the lists (/events, the month pages) carry it: what a card shows, with a short plain-text
 * excerpt of the description made on the server (events/server/description.server.ts) instead of the
 * description itself, which only the event's own page and the API carry.
 */
export type ListEvent = Pick<CalendarEvent, "id" | "summary" | "location" | "start" | "end"> & { excerpt?: string };

/** The API's answer. `stale` is true when the upstream failed and a cached copy was served. */
export type EventsResponse = {
  events: CalendarEvent[];
  /**
   * With `stale`: the ISO instant of the last successful read these events come from. A fresh
   * answer has none: it is the calendar as it is now, and every server reading it answers the same bytes.
   */
  updatedAt?: string;
  stale: boolean;
  /** A public feed visitors can subscribe to, when the source is a public calendar. */
  subscribeUrl?: string;
};

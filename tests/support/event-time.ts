// "Upcoming" and New York's days as the site reads them (app/events/time.ts, app/events/filter.ts), for
// the tests' expectations: a fixed offset (-05:00, T05:00Z) or the machine's zone is right only in some
// seasons. `now` is the clock the server runs at (tests/support/clock.ts), never the machine's.
import { endInstant, eventsForTab } from "../../app/events/filter";
import type { CalendarEvent } from "../../app/events/model";
import { instantOf, newYorkMidnight, parseDateOnly } from "../../app/events/time";

/** Upcoming as the site means it (eventsForTab): not yet ended at `now`, so an all-day event for the whole of its New York day. */
export function isUpcoming(event: Pick<CalendarEvent, "start" | "end">, now: number): boolean {
  return !(endInstant(event as CalendarEvent) <= now);
}

/** A tab's events as the site lists them at `now` (eventsForTab): upcoming soonest first, past most recent first. */
export function inTab<E extends Pick<CalendarEvent, "start" | "end">>(events: E[], tab: "upcoming" | "past", now: number): E[] {
  return eventsForTab(events as unknown as CalendarEvent[], tab, now) as unknown as E[];
}

/** The instant a written time names (a `<time dateTime>`, a schema.org date): a bare date is midnight in New York as that day starts. */
export function instantOfText(value: string): number {
  return parseDateOnly(value) ? instantOf({ date: value }) : Date.parse(value);
}

/** When the New York day "YYYY-MM-DD" is over: midnight in New York as the next day starts. */
export function endOfNewYorkDay(date: string): number {
  const parts = parseDateOnly(date);
  if (!parts) throw new Error(`"${date}" is not a date`);
  return newYorkMidnight(parts.year, parts.month, parts.day + 1);
}

/** When a schema.org Event the site wrote is over: a bare endDate is its last day (inclusive); without one, as its start. */
export function schemaEndInstant(event: { startDate?: unknown; endDate?: unknown }): number {
  const end = String(event.endDate ?? event.startDate);
  return parseDateOnly(end) ? endOfNewYorkDay(end) : Date.parse(end);
}

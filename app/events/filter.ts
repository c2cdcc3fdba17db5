import type { EventsTab } from "./tab";
import type { CalendarEvent } from "./model";
import { instantOf, newYorkMidnight, parseDateOnly } from "./time";

/** When an event is over: its end; all-day ends at midnight in New York of the (exclusive) end date. */
export function endInstant(event: CalendarEvent): number {
  if (event.end) return instantOf(event.end);
  const start = event.start;
  if (start && "date" in start) {
    // No end given: an all-day event lasts its one day.
    const parts = parseDateOnly(start.date);
    return parts ? newYorkMidnight(parts.year, parts.month, parts.day + 1) : Number.NaN;
  }
  return instantOf(start);
}

/** Upcoming: not yet ended, soonest first. Past: ended, most recent first. Undated events count as upcoming, last. */
export function eventsForTab(events: CalendarEvent[], tab: EventsTab, now: number): CalendarEvent[] {
  const ended = (e: CalendarEvent) => endInstant(e) <= now;
  const start = (e: CalendarEvent) => {
    const value = instantOf(e.start);
    return Number.isNaN(value) ? Number.POSITIVE_INFINITY : value;
  };
  if (tab === "past") return events.filter(ended).sort((a, b) => start(b) - start(a));
  return events.filter((e) => !ended(e)).sort((a, b) => start(a) - start(b));
}

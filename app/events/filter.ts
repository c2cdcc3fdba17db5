import type { EventsTab } from "./tab";
import type { CalendarEvent, EventsResponse } from "./model";
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

/** What /events shows of a calendar: the tab's events, at most `limit` of them, and how many the tab has. */
export type EventsView<E = CalendarEvent> = Omit<EventsResponse, "events"> & { events: E[]; total: number };

/** The one place /events picks its list: the server's document and the browser's API read both come here. */
export function eventsView(response: EventsResponse, tab: EventsTab, now: number, limit: number): EventsView {
  const inTab = eventsForTab(response.events, tab, now);
  return { ...response, events: inTab.slice(0, limit), total: inTab.length };
}

import type { EventTime } from "./model";
import { EVENTS_TIME_ZONE, lastDayOf, parseDateOnly } from "./time";

// Assembled from parts so Node (server) and every browser print the same characters:
// whole-string Intl output differs between ICU versions (" at " vs ", ", narrow spaces).
const dayParts = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
});
const dateTimeParts = new Intl.DateTimeFormat("en-US", {
  timeZone: EVENTS_TIME_ZONE,
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});

function partsOf(formatter: Intl.DateTimeFormat, instant: number): Record<string, string> {
  return Object.fromEntries(formatter.formatToParts(instant).map((p) => [p.type, p.value]));
}

/** "Thursday, December 4, 2025": exactly the day written, whatever the viewer's zone. */
function formatDay(value: string): string | undefined {
  const parts = parseDateOnly(value);
  if (!parts) return undefined;
  const p = partsOf(dayParts, Date.UTC(parts.year, parts.month - 1, parts.day));
  return `${p.weekday}, ${p.month} ${p.day}, ${p.year}`;
}

// Joins the time, its AM/PM and its zone: a narrow card breaks the line before "7:00 PM EST",
// never inside it ("7:00 / PM EST").
const NBSP = "\u00a0";

/** "Thursday, December 4, 2025 at 7:00 PM EST", in New York time (the time's spaces non-breaking). */
export function formatInstant(instant: number): string {
  const p = partsOf(dateTimeParts, instant);
  return `${p.weekday}, ${p.month} ${p.day}, ${p.year} at ${[`${p.hour}:${p.minute}`, p.dayPeriod, p.timeZoneName].join(NBSP)}`;
}

/**
 * Spec §8/§9 event date: US English with weekday, long month, day and year, plus the time
 * (New York, with the zone's short name) when there is one; 'TBD' when missing; the raw
 * value when it cannot be parsed. A multi-day all-day event shows its range.
 */
export function formatEventDate(start: EventTime | undefined, end?: EventTime): string {
  if (!start) return "TBD";
  if ("dateTime" in start) {
    const instant = Date.parse(start.dateTime);
    return Number.isNaN(instant) ? start.dateTime : formatInstant(instant);
  }
  const first = formatDay(start.date);
  if (!first) return start.date;
  const lastDate = lastDayOf(start.date, end);
  if (lastDate === start.date) return first;
  const last = formatDay(lastDate);
  return last ? `${first} – ${last}` : first;
}

/** A machine-readable value for <time dateTime>, when there is one. */
export function machineDate(start: EventTime | undefined): string | undefined {
  if (!start) return undefined;
  if ("dateTime" in start) return Number.isNaN(Date.parse(start.dateTime)) ? undefined : start.dateTime;
  return parseDateOnly(start.date) ? start.date : undefined;
}

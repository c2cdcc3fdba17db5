// The community's time zone and every conversion between instants and wall-clock times, with the
// platform's IANA time-zone data (Intl). Shared by the server (feeds, JSON-LD, .ics) and the browser.
import type { EventTime } from "./model";

/** The community meets in New York: times are shown, and answered, in this zone. */
export const EVENTS_TIME_ZONE = "America/New_York";

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Year, month, day of a valid "YYYY-MM-DD" string; undefined for anything else. */
export function parseDateOnly(value: string): { year: number; month: number; day: number } | undefined {
  const match = DATE_ONLY.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

export type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallTime(instantMs: number, timeZone: string): Wall {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instantMs))
      .filter((p) => p.type !== "literal")
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

function exactOffsetMinutes(instantMs: number, timeZone: string): number {
  const w = wallTime(instantMs, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 60_000);
}

const DAY_MS = 86_400_000;
// Intl is the costly part of expanding a long series: a zone's offset is kept per UTC day when it
// is the same at both ends of that day (every day but the few a zone changes its clocks).
const dayOffsets = new Map<string, number | null>();

/** Offset of `timeZone` from UTC at `instantMs`, in minutes (New York in summer: -240). */
export function offsetMinutes(instantMs: number, timeZone: string): number {
  const day = Math.floor(instantMs / DAY_MS);
  const key = `${timeZone}|${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const first = exactOffsetMinutes(day * DAY_MS, timeZone);
    offset = first === exactOffsetMinutes((day + 1) * DAY_MS - 1000, timeZone) ? first : null;
    if (dayOffsets.size >= 100_000) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  return offset ?? exactOffsetMinutes(instantMs, timeZone);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

/** RFC 3339 with the zone's offset at that instant, e.g. 2026-03-08T19:00:00-04:00. */
export function toZonedRfc3339(instantMs: number, timeZone: string = EVENTS_TIME_ZONE): string {
  const offset = offsetMinutes(instantMs, timeZone);
  const local = new Date(Math.floor(instantMs / 1000) * 1000 + offset * 60_000);
  const w = {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
  const sign = offset < 0 ? "-" : "+";
  return (
    `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}` +
    `${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  );
}

/**
 * The instant at which clocks in `timeZone` show the given wall time. A time skipped by a
 * spring-forward change resolves to the later offset (02:30 becomes 03:30), as calendar apps do.
 */
export function wallTimeToInstant(wall: Wall, timeZone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const shows = (t: number) => asUtc - offsetMinutes(t, timeZone) * 60_000 === t;
  const first = asUtc - offsetMinutes(asUtc, timeZone) * 60_000;
  const second = asUtc - offsetMinutes(first, timeZone) * 60_000;
  // Ambiguous (fall back): the earlier instant. Skipped (spring forward): the offset before the gap.
  const matches = [first, second].filter(shows);
  return matches.length > 0 ? Math.min(...matches) : Math.max(first, second);
}

/** The instant of midnight in New York at the start of a calendar day. */
export function newYorkMidnight(year: number, month: number, day: number): number {
  return wallTimeToInstant({ year, month, day, hour: 0, minute: 0, second: 0 }, EVENTS_TIME_ZONE);
}

/** The instant an event time stands for (all-day: midnight in New York); NaN when unparseable. */
export function instantOf(time: EventTime | undefined): number {
  if (!time) return Number.NaN;
  if ("dateTime" in time) return Date.parse(time.dateTime);
  const parts = parseDateOnly(time.date);
  return parts ? newYorkMidnight(parts.year, parts.month, parts.day) : Number.NaN;
}

/** The day before a "YYYY-MM-DD" date (all-day end dates are exclusive). */
export function previousDay(value: string): string | undefined {
  const parts = parseDateOnly(value);
  if (!parts) return undefined;
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day - 1)).toISOString().slice(0, 10);
}

/** The last day of an all-day event: the day before its (exclusive) end date, never before its first day. */
export function lastDayOf(first: string, end: EventTime | undefined): string {
  const last = end && "date" in end ? previousDay(end.date) : undefined;
  return last && last > first ? last : first;
}

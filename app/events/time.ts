import type { EventTime } from "./model";

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

const offsetFormatter = new Intl.DateTimeFormat("en-US", {
  timeZone: EVENTS_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** How far New York's wall clock is ahead of UTC at an instant (negative: behind). */
function newYorkOffsetMs(instant: number): number {
  const parts = Object.fromEntries(offsetFormatter.formatToParts(instant).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - (instant - (instant % 1000));
}

/** An instant as New York wall time with its offset ("2025-12-04T19:00:00-05:00"), for schema.org dates. */
export function newYorkIso(instant: number): string {
  const offset = Math.round(newYorkOffsetMs(instant) / 60_000);
  const wall = new Date(instant - (instant % 1000) + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? "-" : "+";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${wall}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** The instant of midnight in New York at the start of a calendar day. */
export function newYorkMidnight(year: number, month: number, day: number): number {
  const wall = Date.UTC(year, month - 1, day);
  let instant = wall - newYorkOffsetMs(wall);
  // Second pass settles days whose offset differs from the first guess (daylight-saving changes).
  instant = wall - newYorkOffsetMs(instant);
  return instant;
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

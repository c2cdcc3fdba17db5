// The compact list's pieces (phones): events grouped by the month they start in, each with a
// small date block, all in New York time like every other date on the site.
import type { CalendarEvent } from "./model";
import { EVENTS_TIME_ZONE, parseDateOnly } from "./time";

export type DateBlock = { weekday: string; day: string; time?: string };

const timedParts = new Intl.DateTimeFormat("en-US", {
  timeZone: EVENTS_TIME_ZONE,
  year: "numeric",
  month: "long",
  day: "numeric",
  weekday: "short",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});
const dayParts = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric", weekday: "short" });

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

type Parts = { year: string; month: string; monthNumber: number; day: string; weekday: string; time?: string };

function partsOf(event: Pick<CalendarEvent, "id" | "start">): Parts | undefined {
  const start = event.start;
  if (!start) return undefined;
  if ("date" in start) {
    const date = parseDateOnly(start.date);
    if (!date) return undefined;
    const p = Object.fromEntries(dayParts.formatToParts(Date.UTC(date.year, date.month - 1, date.day)).map((x) => [x.type, x.value]));
    return { year: p.year!, month: p.month!, monthNumber: date.month, day: p.day!, weekday: p.weekday! };
  }
  const instant = Date.parse(start.dateTime);
  if (Number.isNaN(instant)) return undefined;
  const p = Object.fromEntries(timedParts.formatToParts(instant).map((x) => [x.type, x.value]));
  const monthNumber = MONTHS.indexOf(p.month!) + 1;
  return {
    year: p.year!,
    month: p.month!,
    monthNumber,
    day: p.day!,
    weekday: p.weekday!,
    time: `${p.hour}:${p.minute} ${p.dayPeriod} ${p.timeZoneName}`,
  };
}

/** The date block: weekday, day of the month and (timed events) the time; undefined without a readable start. */
export function dateBlock(event: Pick<CalendarEvent, "id" | "start">): DateBlock | undefined {
  const parts = partsOf(event);
  return parts ? { weekday: parts.weekday, day: parts.day, ...(parts.time ? { time: parts.time } : {}) } : undefined;
}

/** The key of events without a readable start (their month is not known). */
export const UNDATED = "undated";
const UNDATED_LABEL = "Date to be announced";
const MONTH_KEY = /^(\d{4})-(0[1-9]|1[0-2])$/;
const HOUR = 3_600_000;
const utcMonth = (instant: number) => new Date(instant).toISOString().slice(0, 7);

/**
 * The New York month an event starts in ("2026-03"), or UNDATED. New York is 4 or 5 hours behind
 * UTC: where both give the same month the answer needs no Intl (a calendar of thousands of events is
 * keyed in a few milliseconds); only starts within an hour of a month's turn ask the zone's rules.
 */
export function monthKeyOf(event: Pick<CalendarEvent, "id" | "start">): string {
  const start = event.start;
  if (!start) return UNDATED;
  if ("date" in start) return parseDateOnly(start.date) ? start.date.slice(0, 7) : UNDATED;
  const instant = Date.parse(start.dateTime);
  if (Number.isNaN(instant)) return UNDATED;
  const early = utcMonth(instant - 5 * HOUR);
  if (early === utcMonth(instant - 4 * HOUR)) return early;
  const parts = partsOf(event);
  return parts ? `${parts.year}-${String(parts.monthNumber).padStart(2, "0")}` : UNDATED;
}

/** "March 2026" for "2026-03"; "Date to be announced" for UNDATED; undefined for anything else. */
export function monthLabel(key: string): string | undefined {
  if (key === UNDATED) return UNDATED_LABEL;
  const match = MONTH_KEY.exec(key);
  return match ? `${MONTHS[Number(match[2]) - 1]} ${match[1]}` : undefined;
}

/** Consecutive events of the same month in one group, in the list's order; undated ones under "Date to be announced". */
export function groupByMonth<E extends CalendarEvent>(events: readonly E[]): { key: string; label: string; events: E[] }[] {
  const groups: { key: string; label: string; events: E[] }[] = [];
  for (const event of events) {
    const key = monthKeyOf(event);
    const last = groups.at(-1);
    if (last?.key === key) last.events.push(event);
    else groups.push({ key, label: monthLabel(key) ?? UNDATED_LABEL, events: [event] });
  }
  return groups;
}

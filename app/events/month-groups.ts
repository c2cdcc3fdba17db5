// The compact list's pieces (phones): events grouped by the month they start in, each with a
// small date block, all in New York time like every other date on the site.
import type { CalendarEvent } from "./model";
import { EVENTS_TIME_ZONE, parseDateOnly } from "./time";

export type DateBlock = { weekday: string; day: string; time?: string };
export type MonthGroup = { key: string; label: string; events: CalendarEvent[] };

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

function partsOf(event: CalendarEvent): Parts | undefined {
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
export function dateBlock(event: CalendarEvent): DateBlock | undefined {
  const parts = partsOf(event);
  return parts ? { weekday: parts.weekday, day: parts.day, ...(parts.time ? { time: parts.time } : {}) } : undefined;
}

/** Consecutive events of the same month in one group, in the list's order; undated ones under "Date to be announced". */
export function groupByMonth(events: CalendarEvent[]): MonthGroup[] {
  const groups: MonthGroup[] = [];
  for (const event of events) {
    const parts = partsOf(event);
    const key = parts ? `${parts.year}-${String(parts.monthNumber).padStart(2, "0")}` : "undated";
    const label = parts ? `${parts.month} ${parts.year}` : "Date to be announced";
    const last = groups.at(-1);
    if (last?.key === key) last.events.push(event);
    else groups.push({ key, label, events: [event] });
  }
  return groups;
}

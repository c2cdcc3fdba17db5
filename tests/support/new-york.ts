// New York's calendar as the tests work it out, for expectations only: Intl's own zone data (a formatter for
// "America/New_York"), never the site's time code (app/events/time.ts, format-date.ts), so a mistake there
// cannot hide in both the page and its expectation. Civil dates ("2026-12-31") are plain day arithmetic.

export const NEW_YORK = "America/New_York";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The parts of `instant` as `options` (in `timeZone`) format it, by type. */
function partsIn(timeZone: string, instant: number, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, ...options });
    formatters.set(key, formatter);
  }
  return Object.fromEntries(formatter.formatToParts(instant).map((part) => [part.type, part.value]));
}

export type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** What a clock in `timeZone` shows at `instant`. */
export function wallIn(timeZone: string, instant: number): WallTime {
  const p = partsIn(timeZone, instant, {
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour) % 24,
    minute: Number(p.minute),
    second: Number(p.second),
  };
}

const sameWall = (a: WallTime, b: WallTime) =>
  a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute && a.second === b.second;

/**
 * Every instant at which a clock in `timeZone` shows `wall`: one, two in an hour repeated when the clocks go
 * back, none in an hour skipped when they go forward. Tried at every whole-quarter-hour offset a zone can have.
 */
export function instantsOfWall(timeZone: string, wall: WallTime): number[] {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const found = new Set<number>();
  for (let quarter = -14 * 4; quarter <= 14 * 4; quarter++) {
    const candidate = asUtc - quarter * 15 * MINUTE;
    if (sameWall(wallIn(timeZone, candidate), wall)) found.add(candidate);
  }
  return [...found].sort((a, b) => a - b);
}

/** The one instant New York shows `wall` at; throws for a wall time that is repeated or skipped. */
export function newYorkInstant(date: string, time = "00:00"): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  const found = instantsOfWall(NEW_YORK, { year, month, day, hour, minute, second: 0 });
  if (found.length !== 1) throw new Error(`${date} ${time} is ${found.length === 0 ? "skipped" : "repeated"} in New York`);
  return found[0]!;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "2026-12-31": the civil date a clock in `timeZone` (New York unless named) shows at `instant`. */
export function dateIn(instant: number, timeZone = NEW_YORK): string {
  const w = wallIn(timeZone, instant);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** A civil date `days` after `date` (before when negative). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day) + days * DAY).toISOString().slice(0, 10);
}

/** The first day of the month after `date`'s. */
export function nextMonthStart(date: string): string {
  const [year, month] = date.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
}

/** New York's offset from UTC at `instant`, in minutes (-300 in winter), from Intl's "GMT-05:00". */
export function newYorkOffsetMinutes(instant: number): number {
  const name = partsIn(NEW_YORK, instant, { timeZoneName: "longOffset" }).timeZoneName!;
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!match) throw new Error(`unexpected offset name ${name}`);
  return match[1] ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/** "2026-12-31T23:10:00-05:00": the instant as New York's clock shows it, with New York's offset then. */
export function newYorkRfc3339(instant: number): string {
  const w = wallIn(NEW_YORK, instant);
  const offset = newYorkOffsetMinutes(instant);
  const sign = offset < 0 ? "-" : "+";
  return (
    `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}` +
    `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  );
}

/** Noon in New York on a civil date: an instant that is on that date whatever the season. */
const noonOf = (date: string) => newYorkInstant(date, "12:00");

/** "Thursday, December 31, 2026": a civil date as New York names it. */
export function longDate(date: string): string {
  const p = partsIn(NEW_YORK, noonOf(date), { weekday: "long", year: "numeric", month: "long", day: "numeric" });
  return `${p.weekday}, ${p.month} ${p.day}, ${p.year}`;
}

/** "Thursday, December 31, 2026 at 11:10 PM EST": an instant as New York's clock and calendar show it. */
export function longDateTime(instant: number): string {
  const p = partsIn(NEW_YORK, instant, {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
  return `${p.weekday}, ${p.month} ${p.day}, ${p.year} at ${p.hour}:${p.minute} ${p.dayPeriod} ${p.timeZoneName}`;
}

/** "11:10 PM EST". */
export function shortTime(instant: number): string {
  const p = partsIn(NEW_YORK, instant, { hour: "numeric", minute: "2-digit", timeZoneName: "short" });
  return `${p.hour}:${p.minute} ${p.dayPeriod} ${p.timeZoneName}`;
}

/** "Thu": the short weekday of a civil date. */
export function shortWeekday(date: string): string {
  return partsIn(NEW_YORK, noonOf(date), { weekday: "short" }).weekday!;
}

/** "December 2026": the month of a civil date. */
export function monthName(date: string): string {
  const p = partsIn(NEW_YORK, noonOf(date), { year: "numeric", month: "long" });
  return `${p.month} ${p.year}`;
}

/** Text as a reader sees it: every kind of space (the site's non-breaking ones too) one plain space, trimmed. */
export function plainText(text: string): string {
  return text.replace(/[\s\u00a0\u202f]+/g, " ").trim();
}

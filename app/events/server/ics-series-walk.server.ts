// Walking a series' rules to the window. A series that has run daily since 1990 would take
// thirteen thousand steps to reach today; where the rule repeats on a fixed grid of days it starts
// near the window instead, and the feed's steps are shared between its series (each gets what it
// needs up to an equal share of what is left), so a long walk never costs another series its
// occurrences. What is cut is named per series, in one log line per read.
import ICAL from "ical.js";

/** Steps one series may take, whatever is left of the feed's: guards against rules that never reach the window. */
export const MAX_ITERATIONS_PER_SERIES = 20_000;
/**
 * Steps one feed may take in all (each series' steps, before or in the window): a 5 MB feed of
 * thousands of unbounded series could otherwise expand to millions, parsed on the thread that reads.
 */
export const MAX_OCCURRENCES_PER_FEED = 50_000;
/** How many cut series one log line names; the rest are counted. */
const MAX_LOGGED_SERIES = 20;
const DAY = 86_400_000;

/** One series' rule, walked lazily: the starts kept (in or near the window) and the steps taken. */
export type Walk = {
  readonly uid: string;
  readonly summary?: string;
  /** Starts that may overlap the window, in order. */
  readonly kept: ICAL.Time[];
  steps: number;
  done: boolean;
  /** Why the walk stopped before the rule ended or passed the window. */
  cut?: "series" | "feed";
  /** The rule could not be walked (ical.js threw): the series is left out. */
  failed?: boolean;
  readonly next: () => ICAL.Time | null;
  /** Whether a start is at or after the window's end (the costly check, with the zone). */
  readonly pastWindow: (time: ICAL.Time) => boolean;
  /** Before this day number (days since 1970-01-01, as written) a start cannot reach into the window. */
  readonly firstDay: number;
  /** The day number of the window's end: a start two days after it is past the window, whatever its zone. */
  readonly endDay: number;
};

/** The day number of a time's written date: no zone, so no Intl. */
function dayNumber(time: ICAL.Time): number {
  return Date.UTC(time.year, time.month - 1, time.day) / DAY;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Days after which the component's rules repeat exactly (DAILY or WEEKLY, any INTERVAL and BY
 * parts, no COUNT): moved by a multiple of it, DTSTART gives the same occurrences after the move.
 * Undefined for COUNT (occurrences must be counted from the start), monthly and yearly rules
 * (months differ in length; they take few steps anyway) and sub-daily ones.
 */
export function repeatDays(component: ICAL.Component): number | undefined {
  let days = 1;
  const rules = component.getAllProperties("rrule").map((p) => p.getFirstValue());
  if (rules.length === 0) return undefined;
  for (const rule of rules) {
    if (!(rule instanceof ICAL.Recur) || rule.count) return undefined;
    const interval = Number.isInteger(rule.interval) && rule.interval > 0 ? rule.interval : 1;
    const period = rule.freq === "DAILY" ? interval : rule.freq === "WEEKLY" ? 7 * interval : undefined;
    if (!period) return undefined;
    days = (days * period) / gcd(days, period);
  }
  return days;
}

/**
 * Where to start walking: DTSTART moved ahead by whole repeats to the last such day on or before
 * `beforeDay`, or DTSTART itself when the rule cannot be moved. The moved start's week (or day)
 * lines up with the original's, so every occurrence from it on is the original's.
 */
export function walkStart(component: ICAL.Component, start: ICAL.Time, beforeDay: number): ICAL.Time {
  const period = repeatDays(component);
  if (!period) return start;
  const repeats = Math.floor((beforeDay - dayNumber(start)) / period);
  if (repeats <= 0) return start;
  const day = new Date((dayNumber(start) + repeats * period) * DAY);
  return new ICAL.Time(
    {
      year: day.getUTCFullYear(),
      month: day.getUTCMonth() + 1,
      day: day.getUTCDate(),
      hour: start.hour,
      minute: start.minute,
      second: start.second,
      isDate: start.isDate,
    },
    start.zone,
  );
}

/**
 * A walk of the component's rules (its EXDATEs and RDATEs already taken out) from near the window.
 * `lengthMs` is how long an occurrence lasts: a start that long (and two days, for zones and clock
 * changes) before the window is still kept, as it may reach into it.
 */
export function startWalk(
  component: ICAL.Component,
  start: ICAL.Time,
  window: { start: Date; end: Date },
  lengthMs: number,
  pastWindow: (time: ICAL.Time) => boolean,
  names: { uid: string; summary?: string },
): Walk {
  const firstDay = Math.floor(window.start.getTime() / DAY) - Math.ceil(Math.max(0, lengthMs) / DAY) - 2;
  // Strictly before firstDay: the moved start is an occurrence whether or not it fits the rule
  // (DTSTART always is), so it must fall where starts are dropped.
  const iterator = new ICAL.Event(component).iterator(walkStart(component, start, firstDay - 1));
  return {
    ...names,
    kept: [],
    steps: 0,
    done: false,
    next: () => iterator.next() ?? null,
    pastWindow,
    firstDay,
    endDay: Math.floor(window.end.getTime() / DAY),
  };
}

/** Takes up to `steps` steps of a walk; returns how many it took. Starts far from the window cost no zone work. */
function advance(walk: Walk, steps: number): number {
  let taken = 0;
  while (taken < steps && !walk.done) {
    if (walk.steps >= MAX_ITERATIONS_PER_SERIES) {
      walk.cut = "series";
      walk.done = true;
      break;
    }
    taken++;
    walk.steps++;
    const time = walk.next();
    if (!time) {
      walk.done = true;
      break;
    }
    // A written date is within 14 hours of its instant (38 for an all-day date): only starts
    // near the window's end need their zone worked out.
    const day = dayNumber(time);
    if (day < walk.firstDay) continue;
    if (day > walk.endDay + 1 || (day >= walk.endDay - 2 && walk.pastWindow(time))) {
      walk.done = true;
      break;
    }
    walk.kept.push(time);
  }
  return taken;
}

/**
 * Walks every series within the feed's steps: in rounds, each unfinished series takes up to an
 * equal share of the steps left, so the series that need few finish and the rest share what they
 * leave. A walk that throws is marked failed; the others go on.
 */
export function walkAll(walks: Walk[], budget = MAX_OCCURRENCES_PER_FEED): void {
  let left = budget;
  let active = walks.filter((w) => !w.done);
  while (active.length > 0) {
    const share = Math.floor(left / active.length);
    if (share === 0) break;
    for (const walk of active) {
      try {
        left -= advance(walk, share);
      } catch {
        walk.failed = true;
        walk.done = true;
      }
    }
    active = active.filter((w) => !w.done);
  }
  for (const walk of active) {
    walk.cut = "feed";
    walk.done = true;
  }
}

/** A name for the log: printable, short. */
function short(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, "?");
  return JSON.stringify(printable.length > 48 ? `${printable.slice(0, 47)}…` : printable);
}

/** One line naming each series cut short and the steps it took; undefined when none was. */
export function describeCuts(walks: Walk[], label: string, budget = MAX_OCCURRENCES_PER_FEED): string | undefined {
  const cut = walks.filter((w) => w.cut);
  if (cut.length === 0) return undefined;
  const named = cut.slice(0, MAX_LOGGED_SERIES).map((w) => {
    const why = w.cut === "series" ? "its own limit" : "the feed's limit";
    return `UID ${short(w.uid)}${w.summary ? ` ${short(w.summary)}` : ""} (${w.steps} steps, ${why})`;
  });
  const more = cut.length > MAX_LOGGED_SERIES ? ` and ${cut.length - MAX_LOGGED_SERIES} more` : "";
  return (
    `[events] ${label} has recurring series too long to expand (at most ${MAX_ITERATIONS_PER_SERIES} steps a series, ` +
    `${budget} in all): ${cut.length} cut short, their later occurrences left out: ${named.join("; ")}${more}`
  );
}

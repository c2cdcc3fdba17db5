// The archive: every event the calendar lists, on pages of plain links reachable from /events. A page per
// month (New York time, the month an event starts in), a busy month in parts of PAGE_SIZE events, its events
// in date order; months listed newest first. Events without a readable start have a page of their own
// (UNDATED, last). Addresses: /events/month/2026-03, its parts /events/month/2026-03/2 …; any other (a
// month the calendar has no events in, a part past the last, "/1", "/02") is not a page.
import type { CalendarEvent } from "./model";
import { monthKeyOf, monthLabel, UNDATED } from "./month-groups";

/** Events on one archive page: a page of cards stays a few hundred KB at any calendar size (issue 37). */
export const PAGE_SIZE = 50;

/** Where the month pages live; the route table (app/site-routes.ts) names the same paths. */
export const ARCHIVE_PATH = "/events/month";

export type ArchiveMonth = {
  /** "2026-03", or UNDATED. */
  key: string;
  /** "March 2026". */
  label: string;
  /** Its events, and the pages they take (PAGE_SIZE a page). */
  count: number;
  parts: number;
};

export type Archive = {
  /** Newest first; UNDATED last. */
  months: readonly ArchiveMonth[];
  /** Each month's events, in the calendar's (date) order. */
  events: ReadonlyMap<string, readonly CalendarEvent[]>;
};

export type ArchivePage = { month: ArchiveMonth; part: number; events: readonly CalendarEvent[] };

const archives = new WeakMap<readonly CalendarEvent[], Archive>();

/** The archive of a calendar's events (in date order, as the calendar copy holds them); made once per copy. */
export function archiveOf(events: readonly CalendarEvent[]): Archive {
  let archive = archives.get(events);
  if (!archive) {
    const byMonth = new Map<string, CalendarEvent[]>();
    for (const event of events) {
      const key = monthKeyOf(event);
      const list = byMonth.get(key);
      if (list) list.push(event);
      else byMonth.set(key, [event]);
    }
    const keys = [...byMonth.keys()].sort((a, b) => (a === UNDATED ? 1 : b === UNDATED ? -1 : a < b ? 1 : a > b ? -1 : 0));
    const months = keys.map((key) => {
      const count = byMonth.get(key)!.length;
      return { key, label: monthLabel(key)!, count, parts: Math.ceil(count / PAGE_SIZE) };
    });
    archive = { months, events: byMonth };
    archives.set(events, archive);
  }
  return archive;
}

/** The address of a month's page (its first part) or of a later part. */
export function monthPagePath(key: string, part = 1): string {
  return `${ARCHIVE_PATH}/${key}${part > 1 ? `/${part}` : ""}`;
}

/** A part as written in an address: "2" and up, no leading zero (the first part is the month's own address). */
const LATER_PART = /^[1-9]\d*$/;

/** The page at a month page's address parameters, or undefined when the address names no page (the site's 404). */
export function archivePage(archive: Archive, key: string | undefined, part: string | undefined): ArchivePage | undefined {
  const month = key === undefined ? undefined : archive.months.find((candidate) => candidate.key === key);
  if (!month) return undefined;
  let number = 1;
  if (part !== undefined) {
    if (!LATER_PART.test(part)) return undefined;
    number = Number(part);
    if (number < 2 || number > month.parts) return undefined;
  }
  const events = archive.events.get(month.key)!.slice((number - 1) * PAGE_SIZE, number * PAGE_SIZE);
  return { month, part: number, events };
}

/** The archive page that lists `event` (the page a tab's list continues on). */
export function pagePathOf(archive: Archive, event: CalendarEvent): string {
  const key = monthKeyOf(event);
  const index = archive.events.get(key)?.indexOf(event) ?? -1;
  return monthPagePath(key, index < 0 ? 1 : Math.floor(index / PAGE_SIZE) + 1);
}

// iCalendar (RFC 5545) feeds: a configured public feed or the bundled sample, expanded into
// one CalendarEvent per occurrence inside the window. Feeds are read as their authors meant them
// (see ics-text.server.ts and docs/decisions/events-backend.md); what cannot be read is left out
// and logged, and only a text that is not iCalendar at all fails the feed.
import ICAL from "ical.js";
import type { CalendarEvent, EventTime } from "~/events/model";
import { readArrived, requestUpstream, UpstreamError, type UpstreamOptions } from "./fetch-upstream.server";
import { occurrenceId } from "./ids.server";
import { cleanIcsText, looksLikeICalendar, RAW_FORM_PARAMETER, RAW_START_PROPERTY, unfold, type Unreadable } from "./ics-text.server";
import { readDescription, type DescriptionForms } from "./description.server";
import { EVENTS_TIME_ZONE, isTimeZone, toZonedRfc3339, wallTimeToInstant } from "~/events/time";
import { startInstant, type Window } from "./time.server";
import { endInstant } from "~/events/filter";
import { ianaZone } from "./time-zones.server";
import { describeCuts, startWalk, walkAll, type Walk } from "./ics-series-walk.server";

export { MAX_OCCURRENCES_PER_FEED } from "./ics-series-walk.server";
/** The most events one read keeps, as for Google (GOOGLE_LIMITS): past the limit the oldest past ones go. */
export const MAX_EVENTS_PER_FEED = 25_000;
const LABEL = "The calendar feed";
/** How many unreadable events one log line names; the rest are counted. */
const MAX_LOGGED_UIDS = 20;

/** webcal:// is the same feed over https. */
export function feedFetchUrl(feedUrl: string): string {
  return feedUrl.replace(/^webcal:\/\//i, "https://");
}

/** The feed, fetched (within requestUpstream's size limit, timeout and retries) and read by `read`. */
function requestFeed<T>(feedUrl: string, read: (body: string) => T, options: UpstreamOptions, signal?: AbortSignal): Promise<T> {
  return requestUpstream({ url: feedFetchUrl(feedUrl), label: LABEL, accept: "text/calendar, */*;q=0.5", read, signal }, options);
}

/** The feed's text as sent. */
export function fetchIcsText(feedUrl: string, options: UpstreamOptions, signal?: AbortSignal): Promise<string> {
  return requestFeed(feedUrl, (body) => body, options, signal);
}

/** The feed's events (each failed attempt logged, a body that cannot be read is "unreadable"). */
export function fetchIcsEvents(feedUrl: string, window: Window, options: UpstreamOptions, signal?: AbortSignal): Promise<CalendarEvent[]> {
  return requestFeed(feedUrl, (body) => parseIcsEvents(body, window, options.log), options, signal);
}

/** parseIcsEvents, its unexpected failures told as the feed's ("arrived but could not be read"). */
export function readIcsEvents(icsText: string, window: Window, log?: (message: string) => void): Promise<CalendarEvent[]> {
  return readArrived(LABEL, () => parseIcsEvents(icsText, window, log));
}

type Time = ICAL.Time;

/** Zones for times that name none: X-WR-TIMEZONE (Google, Apple) when the feed has one, else New York. */
type Zones = { floating: string; declared?: string };

function isFloating(time: Time): boolean {
  return time.zone !== ICAL.Timezone.utcTimezone && (!time.zone || time.zone === ICAL.Timezone.localTimezone);
}

/**
 * The instant of a time: all-day dates at New York midnight; a TZID that names a zone (IANA, or Windows
 * through CLDR) by the platform's zone data, as RFC 5545 §3.3.5 reads a wall time in the hour the clocks
 * repeat (the first instant) or skip (the offset before the gap), which ical.js's own arithmetic does not;
 * another TZID by its VTIMEZONE; a floating time in the feed's zone.
 */
function instantOf(time: Time, tzid: string | undefined, zones: Zones): number {
  if (time.isDate)
    return wallTimeToInstant({ year: time.year, month: time.month, day: time.day, hour: 0, minute: 0, second: 0 }, EVENTS_TIME_ZONE);
  const wall = { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second };
  if (time.zone === ICAL.Timezone.utcTimezone) return time.toUnixTime() * 1000;
  const named = ianaZone(tzid);
  if (named) return wallTimeToInstant(wall, named);
  if (!isFloating(time)) return time.toUnixTime() * 1000;
  return wallTimeToInstant(wall, zones.floating);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The day as written, whatever the form: 20260226T000000 in any zone is the 26th. */
function dateKey(time: Time): string {
  return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
}

function toEventTime(time: Time, tzid: string | undefined, zones: Zones, instant = instantOf(time, tzid, zones)): EventTime {
  if (time.isDate) return { date: dateKey(time) };
  const dateTime = toZonedRfc3339(instant);
  const zone = tzid && isTimeZone(tzid) ? tzid : isFloating(time) && !tzid ? zones.declared : undefined;
  return zone ? { dateTime, timeZone: zone } : { dateTime };
}

function tzidOf(property: ICAL.Property | null | undefined): string | undefined {
  const value = property?.getParameter("tzid");
  return typeof value === "string" && value ? value : undefined;
}

function text(component: ICAL.Component, property: string): string | undefined {
  const value = component.getFirstPropertyValue(property);
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/** LAST-MODIFIED as an ISO instant (the sitemap's lastmod), when it is a readable date-time. */
function lastModified(component: ICAL.Component): string | undefined {
  const value = component.getFirstPropertyValue("last-modified");
  if (!(value instanceof ICAL.Time)) return undefined;
  const instant = value.toJSDate().getTime();
  return Number.isNaN(instant) ? undefined : new Date(instant).toISOString();
}

function isCancelled(component: ICAL.Component): boolean {
  return text(component, "status")?.toUpperCase() === "CANCELLED";
}

/** X-ALT-DESC;FMTTYPE=text/html (Outlook, some exporters) is preferred to the plain DESCRIPTION (readDescription converts each text once). */
function description(component: ICAL.Component): DescriptionForms {
  return readDescription(rawDescription(component));
}

function rawDescription(component: ICAL.Component): string | undefined {
  const alt = component.getAllProperties("x-alt-desc").find((p) => String(p.getParameter("fmttype") ?? "").toLowerCase() === "text/html");
  const html = alt?.getFirstValue();
  // ical.js keeps an X- property's value as written; Outlook and the sample feed write it as TEXT
  // (commas, semicolons and newlines escaped), so it is decoded as TEXT.
  if (typeof html === "string" && html.trim()) return ICAL.design.icalendar.value.text!.fromICAL(html);
  return text(component, "description");
}

/** One time of a series (an occurrence, EXDATE, RDATE or RECURRENCE-ID) with the TZID it was written with. */
type Stamp = { time: Time; tzid?: string; ms?: number };

/** A stamp's instant, worked out once (Intl is the costly part of a long series); its time must not change after. */
function msOf(stamp: Stamp, zones: Zones): number {
  stamp.ms ??= instantOf(stamp.time, stamp.tzid, zones);
  return stamp.ms;
}

/** A series' first start: how its occurrences are keyed and how other forms are brought to it. */
type Series = { uid: string; start: Time; tzid?: string };

/** A date brought to a date-time series: that day at the series' time of day, in its zone. */
function atSeriesTime(date: Time, series: Series): Time {
  const { start } = series;
  return new ICAL.Time(
    { year: date.year, month: date.month, day: date.day, hour: start.hour, minute: start.minute, second: start.second, isDate: false },
    start.zone,
  );
}

/** A stamp in the series' own form: a date for an all-day series, else a date-time (see atSeriesTime). */
function inSeriesForm(stamp: Stamp, series: Series): Stamp {
  if (series.start.isDate) return stamp.time.isDate ? stamp : { time: ICAL.Time.fromDateString(dateKey(stamp.time)) };
  return stamp.time.isDate ? { time: atSeriesTime(stamp.time, series), tzid: series.tzid } : stamp;
}

/** The key of an occurrence (its date, or its instant in ms): ids are made from it, so it stays stable. */
function keyOf(stamp: Stamp, series: Series, zones: Zones): string {
  const s = inSeriesForm(stamp, series);
  return s.time.isDate ? dateKey(s.time) : String(msOf(s, zones));
}

/**
 * EXDATEs and RECURRENCE-IDs point at occurrences in either form: a date-time matches the
 * occurrence at that instant (or, in an all-day series, on that day); a date matches the day.
 */
class Matcher<T> {
  private readonly byKey = new Map<string, T>();
  private readonly byDay = new Map<string, T>();
  constructor(
    private readonly series: Series,
    private readonly zones: Zones,
  ) {}
  add(stamp: Stamp, value: T): void {
    if (stamp.time.isDate && !this.series.start.isDate) this.byDay.set(dateKey(stamp.time), value);
    else this.byKey.set(keyOf(stamp, this.series, this.zones), value);
  }
  find(occurrence: Stamp, key: string): T | undefined {
    return this.byKey.get(key) ?? this.byDay.get(dateKey(occurrence.time));
  }
}

type Occurrence = {
  component: ICAL.Component;
  master?: ICAL.Component;
  uid: string;
  key: string;
  start: EventTime;
  end?: EventTime;
  range?: [number, number];
};

function toCalendarEvent(o: Occurrence): CalendarEvent {
  const pick = (property: string) => text(o.component, property) ?? (o.master ? text(o.master, property) : undefined);
  const event: CalendarEvent = { id: occurrenceId(o.uid, o.key) };
  const summary = pick("summary");
  if (summary) event.summary = summary;
  const own = description(o.component);
  Object.assign(event, own.description || !o.master ? own : description(o.master));
  const location = pick("location");
  if (location) event.location = location;
  event.start = o.start;
  if (o.end) event.end = o.end;
  const updated = lastModified(o.component) ?? (o.master ? lastModified(o.master) : undefined);
  if (updated) event.updated = updated;
  return event;
}

/** Start and end instants; an undated event (its start unreadable) is always shown. */
function overlaps(o: Pick<Occurrence, "range">, window: Window): boolean {
  if (!o.range) return true;
  const [start, rawEnd] = o.range;
  const end = Math.max(rawEnd, start);
  return start < window.end.getTime() && (end > window.start.getTime() || (end === start && start >= window.start.getTime()));
}

/** The end of an occurrence starting at `start`: DTEND, else DURATION, else a day (dates) or none. */
function endOf(component: ICAL.Component, start: Time): Stamp {
  const startTzid = tzidOf(component.getFirstProperty("dtstart"));
  const dtend = component.getFirstProperty("dtend");
  const endValue = dtend?.getFirstValue();
  if (endValue instanceof ICAL.Time && endValue.isDate === start.isDate) return { time: endValue, tzid: tzidOf(dtend) };
  const end = start.clone();
  const duration = component.getFirstPropertyValue("duration");
  if (duration instanceof ICAL.Duration) {
    end.addDuration(duration);
    return { time: end, tzid: startTzid };
  }
  if (endValue instanceof ICAL.Time && !start.isDate) {
    // A date DTEND after a date-time start: the start of that day.
    return {
      time: new ICAL.Time(
        { year: endValue.year, month: endValue.month, day: endValue.day, hour: 0, minute: 0, second: 0, isDate: false },
        start.zone,
      ),
      tzid: startTzid,
    };
  }
  if (endValue instanceof ICAL.Time) {
    // A date-time DTEND after a date start: its day, exclusive, when that is after the start.
    const day = ICAL.Time.fromDateString(dateKey(endValue));
    if (day.compare(start) > 0) return { time: day };
  }
  // Neither: an all-day event lasts its day, a timed one has no length.
  if (start.isDate) end.addDuration(ICAL.Duration.fromData({ days: 1 }));
  return { time: end, tzid: startTzid };
}

function occurrence(
  component: ICAL.Component,
  uid: string,
  key: string,
  start: Stamp,
  end: Stamp,
  zones: Zones,
  master?: ICAL.Component,
): Occurrence {
  return {
    component,
    master,
    uid,
    key,
    start: toEventTime(start.time, start.tzid, zones, msOf(start, zones)),
    end: toEventTime(end.time, end.tzid, zones, msOf(end, zones)),
    range: [msOf(start, zones), msOf(end, zones)],
  };
}

/** Every value of every EXDATE or RDATE, with its TZID; a PERIOD counts by its start. */
function stamps(component: ICAL.Component, name: string): Stamp[] {
  return component.getAllProperties(name).flatMap((property) =>
    property.getValues().flatMap((value: unknown) => {
      const time = value instanceof ICAL.Period ? value.start : value;
      return time instanceof ICAL.Time ? [{ time, tzid: tzidOf(property) }] : [];
    }),
  );
}

/** The uid of an event for keys and ids; a missing UID falls back to the title and start. */
function uidOf(component: ICAL.Component): string {
  const start = component.getFirstPropertyValue("dtstart");
  return text(component, "uid") ?? `${text(component, "summary") ?? ""}@${start instanceof ICAL.Time ? start.toString() : ""}`;
}

/** One series (or single event) read and walked, before its occurrences are made. */
type Expansion = {
  component: ICAL.Component;
  series: Series;
  excluded: Matcher<true>;
  /** RDATEs, in the series' form. */
  extra: Stamp[];
  firstEnd: Stamp;
  /** The rule's walk; none for a single event. */
  walk?: Walk;
};

/** Reads a series' EXDATEs, RDATEs and length, and starts its rule's walk (see ics-series-walk). */
function startExpansion(component: ICAL.Component, series: Series, window: Window, zones: Zones): Expansion {
  const excluded = new Matcher<true>(series, zones);
  for (const stamp of stamps(component, "exdate")) excluded.add(stamp, true);
  const extra = stamps(component, "rdate").map((stamp) => inSeriesForm(stamp, series));
  // EXDATE and RDATE are applied here, in either form; ical.js's own expansion compares forms strictly.
  component.removeAllProperties("exdate");
  component.removeAllProperties("rdate");
  const firstEnd = endOf(component, series.start);
  const expansion: Expansion = { component, series, excluded, extra, firstEnd };
  if (component.hasProperty("rrule")) {
    const windowEnd = window.end.getTime();
    const lengthMs = firstEnd.time.subtractDate(series.start).toSeconds() * 1000;
    expansion.walk = startWalk(component, series.start, window, lengthMs, (time) => msOf({ time, tzid: series.tzid }, zones) >= windowEnd, {
      uid: series.uid,
      summary: text(component, "summary"),
    });
  }
  return expansion;
}

/** The occurrences of one walked series (or single event) inside the window, overrides left out. */
function occurrencesOf(
  expansion: Expansion,
  overrides: Matcher<ICAL.Component> | undefined,
  replaced: Map<ICAL.Component, string>,
  window: Window,
  zones: Zones,
): Occurrence[] {
  const { component, series, excluded, firstEnd, walk } = expansion;
  const first: Stamp = { time: series.start, tzid: series.tzid };
  const candidates: Stamp[] = walk ? walk.kept.map((time) => ({ time, tzid: series.tzid })) : [first];
  candidates.push(...expansion.extra);

  const duration = firstEnd.time.subtractDate(series.start);
  const seen = new Set<string>();
  const out: Occurrence[] = [];
  for (const start of candidates) {
    const key = keyOf(start, series, zones);
    if (seen.has(key)) continue;
    seen.add(key);
    if (excluded.find(start, key)) continue;
    const override = overrides?.find(start, key);
    if (override) {
      replaced.set(override, key); // the override stands in for it, wherever it moved, under its id
      continue;
    }
    // Later ends are the start plus the first occurrence's length, in the start's zone.
    const end = start === first ? firstEnd : { time: start.time.clone(), tzid: start.tzid };
    if (start !== first) end.time.addDuration(duration);
    // Occurrences before the window are dropped here, before the costlier work of answering them.
    if (!overlaps({ range: [msOf(start, zones), msOf(end, zones)] }, window)) continue;
    out.push(occurrence(component, series.uid, key, start, end, zones));
  }
  return out;
}

/**
 * At most `max` events: every upcoming one it can hold (soonest first), then the most recent past
 * ones, as Google's source does; the rest are counted.
 */
export function keepNewest(events: CalendarEvent[], now: number, max: number): { kept: CalendarEvent[]; leftOut: number } {
  if (events.length <= max) return { kept: events, leftOut: 0 };
  const byStart = [...events].sort((a, b) => startInstant(a.start) - startInstant(b.start));
  const firstUpcoming = byStart.findIndex((event) => !(endInstant(event) <= now));
  const split = firstUpcoming === -1 ? byStart.length : firstUpcoming;
  const upcoming = byStart.slice(split, split + max);
  const room = max - upcoming.length;
  const kept = [...(room > 0 ? byStart.slice(0, split).slice(-room) : []), ...upcoming];
  return { kept, leftOut: events.length - kept.length };
}

function describe(entries: Unreadable[]): string {
  const named = entries.slice(0, MAX_LOGGED_UIDS).map((e) => {
    const what = e.skipped ? "event left out" : `${[...new Set(e.properties)].join(", ")} left out`;
    return `UID ${JSON.stringify(e.uid)} (${what})`;
  });
  const more = entries.length > MAX_LOGGED_UIDS ? ` and ${entries.length - MAX_LOGGED_UIDS} more` : "";
  return `[events] ${LABEL} has unreadable events or properties, the rest is shown: ${named.join("; ")}${more}`;
}

/**
 * Every occurrence of every VEVENT that overlaps the window: RRULE/RDATE expanded (rules without an
 * end stop at the window), EXDATE skipped, RECURRENCE-ID overrides applied, STATUS:CANCELLED dropped.
 * An event or property that cannot be read is left out and named (by UID) in one `log` line.
 * Throws UpstreamError("invalid-body") only when the text is not iCalendar.
 */
export function parseIcsEvents(icsText: string, window: Window, log?: (message: string) => void): CalendarEvent[] {
  const lines = unfold(icsText);
  if (!looksLikeICalendar(lines)) throw new UpstreamError(`${LABEL} is not iCalendar`, "invalid-body");
  const { text: cleaned, unreadable } = cleanIcsText(lines);
  let root: ICAL.Component;
  try {
    const parsed = ICAL.parse(cleaned) as unknown[];
    // Several VCALENDARs one after the other (some exporters concatenate): read as one.
    const [first, ...rest] = Array.isArray(parsed[0]) ? (parsed as unknown[][]) : [parsed];
    root = new ICAL.Component(first!);
    for (const more of rest) for (const sub of new ICAL.Component(more).getAllSubcomponents()) root.addSubcomponent(sub);
  } catch {
    throw new UpstreamError(`${LABEL} is not iCalendar (its structure cannot be read)`, "invalid-body");
  }
  if (root.name !== "vcalendar") throw new UpstreamError(`${LABEL} is not an iCalendar VCALENDAR`, "invalid-body");

  const declared = ianaZone(text(root, "x-wr-timezone"));
  const zones: Zones = { floating: declared ?? EVENTS_TIME_ZONE, declared };
  const skip = (component: ICAL.Component, reason: string) => {
    let uid = "(no UID)";
    try {
      uid = uidOf(component);
    } catch {
      // the UID is only for the log
    }
    unreadable.push({ uid: uid.replace(/[^\x20-\x7e]/g, "?").slice(0, 120), properties: [reason], skipped: true });
  };

  const masters: ICAL.Component[] = [];
  const overridesByUid = new Map<string, ICAL.Component[]>();
  for (const vevent of root.getAllSubcomponents("vevent")) {
    if (vevent.hasProperty("recurrence-id")) {
      const uid = text(vevent, "uid") ?? "";
      overridesByUid.set(uid, [...(overridesByUid.get(uid) ?? []), vevent]);
    } else masters.push(vevent);
  }
  const masterByUid = new Map(masters.map((m) => [text(m, "uid") ?? "", m]));

  // Each master in feed order: read first, then every rule walked together (sharing the feed's
  // steps), then its occurrences made, so the log and the events keep the feed's order.
  type Entry = { occurrence: Occurrence } | { skipped: string } | { expansion: Expansion; matcher?: Matcher<ICAL.Component> };
  const entries: [ICAL.Component, Entry][] = [];
  for (const component of masters) {
    try {
      const uid = uidOf(component);
      const startProperty = component.getFirstProperty("dtstart");
      const start = startProperty?.getFirstValue();
      if (isCancelled(component)) continue;
      if (!(start instanceof ICAL.Time)) {
        const raw = component.getFirstProperty(RAW_START_PROPERTY.toLowerCase());
        const value = raw?.getFirstValue();
        if (typeof value !== "string" || !value.trim()) {
          entries.push([component, { skipped: "no DTSTART" }]);
          continue;
        }
        // Spec §8: a start that cannot be read is shown as written, once.
        const asDate = raw?.getParameter(RAW_FORM_PARAMETER.toLowerCase()) === "DATE";
        const start: EventTime = asDate ? { date: value.trim() } : { dateTime: value.trim() };
        entries.push([component, { occurrence: { component, uid, key: `unreadable:${value}`, start } }]);
        continue;
      }
      const series: Series = { uid, start, tzid: tzidOf(startProperty) };
      const overrides = overridesByUid.get(uid);
      let matcher: Matcher<ICAL.Component> | undefined;
      if (overrides) {
        matcher = new Matcher(series, zones);
        for (const o of overrides) {
          const rid = o.getFirstProperty("recurrence-id");
          const time = rid?.getFirstValue();
          if (time instanceof ICAL.Time) matcher.add({ time, tzid: tzidOf(rid) }, o);
        }
      }
      entries.push([component, { expansion: startExpansion(component, series, window, zones), matcher }]);
    } catch {
      entries.push([component, { skipped: "unreadable" }]);
    }
  }

  const walks = entries.flatMap(([, entry]) => ("expansion" in entry && entry.expansion.walk ? [entry.expansion.walk] : []));
  walkAll(walks);

  const occurrences: Occurrence[] = [];
  const replaced = new Map<ICAL.Component, string>();
  for (const [component, entry] of entries) {
    if ("occurrence" in entry) occurrences.push(entry.occurrence);
    else if ("skipped" in entry) skip(component, entry.skipped);
    else if (entry.expansion.walk?.failed) skip(component, "unreadable");
    else {
      try {
        occurrences.push(...occurrencesOf(entry.expansion, entry.matcher, replaced, window, zones));
      } catch {
        skip(component, "unreadable");
      }
    }
  }

  for (const [uid, overrides] of overridesByUid) {
    const master = masterByUid.get(uid);
    if (master && isCancelled(master)) continue;
    for (const component of overrides) {
      try {
        if (isCancelled(component)) continue;
        const startProperty = component.getFirstProperty("dtstart");
        const start = startProperty?.getFirstValue();
        const ridProperty = component.getFirstProperty("recurrence-id");
        const rid = ridProperty?.getFirstValue();
        if (!(start instanceof ICAL.Time) || !(rid instanceof ICAL.Time)) {
          skip(component, "no DTSTART");
          continue;
        }
        const masterStart = master?.getFirstProperty("dtstart");
        const masterTime = masterStart?.getFirstValue();
        const series: Series =
          masterTime instanceof ICAL.Time
            ? { uid, start: masterTime, tzid: tzidOf(masterStart) }
            : { uid, start: rid, tzid: tzidOf(ridProperty) };
        const key = replaced.get(component) ?? keyOf({ time: rid, tzid: tzidOf(ridProperty) }, series, zones);
        const startStamp = { time: start, tzid: tzidOf(startProperty) };
        occurrences.push(occurrence(component, uid, key, startStamp, endOf(component, start), zones, master));
      } catch {
        skip(component, "unreadable");
      }
    }
  }

  if (unreadable.length > 0) log?.(describe(unreadable));
  const cuts = describeCuts(walks, LABEL);
  if (cuts) log?.(cuts);
  const events = occurrences.filter((o) => overlaps(o, window)).map(toCalendarEvent);
  const { kept, leftOut } = keepNewest(events, (window.now ?? new Date()).getTime(), MAX_EVENTS_PER_FEED);
  if (leftOut > 0)
    log?.(`[events] ${LABEL} has more than ${MAX_EVENTS_PER_FEED} events in the window: the ${leftOut} oldest past events are left out`);
  return kept;
}

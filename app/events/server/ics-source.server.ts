// iCalendar (RFC 5545) feeds: a configured public feed or the bundled sample, expanded into
// one CalendarEvent per occurrence inside the window.
import ICAL from "ical.js";
import type { CalendarEvent, EventTime } from "~/events/model";
import { requestUpstream, UpstreamError, type UpstreamOptions } from "./fetch-upstream.server";
import { occurrenceId } from "./ids.server";
import { descriptionToHtml } from "./sanitize.server";
import { DISPLAY_TIME_ZONE, isTimeZone, toZonedRfc3339, wallTimeToInstant, type Window } from "./time.server";

/** Guards against rules that never reach the window (or produce absurd numbers of instances). */
export const MAX_ITERATIONS_PER_SERIES = 20_000;
const LABEL = "The calendar feed";

/** webcal:// is the same feed over https. */
export function feedFetchUrl(feedUrl: string): string {
  return feedUrl.replace(/^webcal:\/\//i, "https://");
}

export async function fetchIcsEvents(feedUrl: string, window: Window, options: UpstreamOptions, signal?: AbortSignal): Promise<CalendarEvent[]> {
  return requestUpstream(
    {
      url: feedFetchUrl(feedUrl),
      label: LABEL,
      accept: "text/calendar, */*;q=0.5",
      read: (body) => parseIcsEvents(body, window),
      signal,
    },
    options,
  );
}

type Time = ICAL.Time;

/** The instant of a date-time; the TZID (when ical.js found no VTIMEZONE for it) is read with Intl. */
function instantOf(time: Time, tzid: string | undefined): number {
  if (time.isDate) return wallTimeToInstant({ year: time.year, month: time.month, day: time.day, hour: 0, minute: 0, second: 0 }, DISPLAY_TIME_ZONE);
  if (time.zone === ICAL.Timezone.utcTimezone || (time.zone && time.zone !== ICAL.Timezone.localTimezone)) {
    return time.toUnixTime() * 1000;
  }
  // Floating time, or a TZID without a VTIMEZONE in the file: IANA names via Intl, else New York.
  const zone = tzid && isTimeZone(tzid) ? tzid : DISPLAY_TIME_ZONE;
  return wallTimeToInstant(
    { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second },
    zone,
  );
}

function toEventTime(time: Time, tzid: string | undefined): EventTime {
  if (time.isDate) return { date: time.toString().slice(0, 10) };
  const dateTime = toZonedRfc3339(instantOf(time, tzid));
  return tzid && isTimeZone(tzid) ? { dateTime, timeZone: tzid } : { dateTime };
}

/** A stable key for an occurrence: its date, or its instant in ms. */
function occurrenceKey(time: Time, tzid: string | undefined): string {
  return time.isDate ? time.toString().slice(0, 10) : String(instantOf(time, tzid));
}

function tzidOf(component: ICAL.Component, property: string): string | undefined {
  const value = component.getFirstProperty(property)?.getParameter("tzid");
  return typeof value === "string" && value ? value : undefined;
}

function text(component: ICAL.Component, property: string): string | undefined {
  const value = component.getFirstPropertyValue(property);
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function isCancelled(component: ICAL.Component): boolean {
  return text(component, "status")?.toUpperCase() === "CANCELLED";
}

/** X-ALT-DESC;FMTTYPE=text/html (Outlook, some exporters) is preferred to the plain DESCRIPTION. */
function description(component: ICAL.Component): string | undefined {
  const alt = component.getAllProperties("x-alt-desc").find((p) => String(p.getParameter("fmttype") ?? "").toLowerCase() === "text/html");
  const html = alt?.getFirstValue();
  if (typeof html === "string" && html.trim()) return descriptionToHtml(html);
  return descriptionToHtml(text(component, "description"));
}

type Occurrence = { component: ICAL.Component; master?: ICAL.Component; uid: string; key: string; start: Time; end: Time; tzid?: string; endTzid?: string };

function toCalendarEvent(o: Occurrence): CalendarEvent {
  const pick = (property: string) => text(o.component, property) ?? (o.master ? text(o.master, property) : undefined);
  const event: CalendarEvent = { id: occurrenceId(o.uid, o.key) };
  const summary = pick("summary");
  if (summary) event.summary = summary;
  const html = description(o.component) ?? (o.master ? description(o.master) : undefined);
  if (html) event.description = html;
  const location = pick("location");
  if (location) event.location = location;
  event.start = toEventTime(o.start, o.tzid);
  event.end = toEventTime(o.end, o.endTzid ?? o.tzid);
  return event;
}

function overlaps(o: Occurrence, window: Window): boolean {
  const start = instantOf(o.start, o.tzid);
  const end = Math.max(instantOf(o.end, o.endTzid ?? o.tzid), start);
  return start < window.end.getTime() && (end > window.start.getTime() || (end === start && start >= window.start.getTime()));
}

/**
 * Every occurrence of every VEVENT that overlaps the window: RRULE/RDATE expanded (rules without an
 * end stop at the window), EXDATE skipped, RECURRENCE-ID overrides applied, STATUS:CANCELLED dropped.
 * Throws UpstreamError("invalid-body") when the text is not iCalendar.
 */
export function parseIcsEvents(icsText: string, window: Window): CalendarEvent[] {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(icsText) as unknown[]);
  } catch {
    throw new UpstreamError(`${LABEL} is not valid iCalendar`, "invalid-body");
  }
  if (root.name !== "vcalendar") throw new UpstreamError(`${LABEL} is not an iCalendar VCALENDAR`, "invalid-body");

  const masters: ICAL.Component[] = [];
  const overrides = new Map<string, Map<string, ICAL.Component>>();
  for (const vevent of root.getAllSubcomponents("vevent")) {
    const rid = vevent.getFirstPropertyValue("recurrence-id");
    if (rid instanceof ICAL.Time) {
      const uid = text(vevent, "uid") ?? "";
      const byKey = overrides.get(uid) ?? new Map<string, ICAL.Component>();
      byKey.set(occurrenceKey(rid, tzidOf(vevent, "recurrence-id")), vevent);
      overrides.set(uid, byKey);
    } else {
      masters.push(vevent);
    }
  }

  const occurrences: Occurrence[] = [];
  const windowEnd = window.end.getTime();
  const seriesWithMaster = new Set<string>();

  for (const component of masters) {
    const event = new ICAL.Event(component);
    if (!(component.getFirstPropertyValue("dtstart") instanceof ICAL.Time)) continue;
    const uid = text(component, "uid") ?? `${text(component, "summary") ?? ""}@${event.startDate.toString()}`;
    seriesWithMaster.add(uid);
    if (isCancelled(component)) continue;
    const tzid = tzidOf(component, "dtstart");
    const endTzid = tzidOf(component, "dtend");

    if (!event.isRecurring()) {
      const key = occurrenceKey(event.startDate, tzid);
      if (overrides.get(uid)?.has(key)) continue; // an override of a single event replaces it
      occurrences.push({ component, uid, key, start: event.startDate, end: event.endDate, tzid, endTzid });
      continue;
    }

    const duration = event.duration;
    const replaced = overrides.get(uid);
    const iterator = event.iterator();
    for (let i = 0, next = iterator.next(); next && i < MAX_ITERATIONS_PER_SERIES; i++, next = iterator.next()) {
      if (instantOf(next, tzid) >= windowEnd) break;
      const key = occurrenceKey(next, tzid);
      if (replaced?.has(key)) continue; // the override below stands in for it, wherever it moved
      const end = next.clone();
      end.addDuration(duration);
      occurrences.push({ component, uid, key, start: next, end, tzid, endTzid: tzid });
    }
  }

  for (const [uid, byKey] of overrides) {
    const master = masters.find((m) => text(m, "uid") === uid);
    if (master && isCancelled(master)) continue;
    for (const [key, component] of byKey) {
      if (isCancelled(component)) continue;
      const event = new ICAL.Event(component);
      if (!(component.getFirstPropertyValue("dtstart") instanceof ICAL.Time)) continue;
      occurrences.push({
        component,
        master: seriesWithMaster.has(uid) ? master : undefined,
        uid,
        key,
        start: event.startDate,
        end: event.endDate,
        tzid: tzidOf(component, "dtstart"),
        endTzid: tzidOf(component, "dtend"),
      });
    }
  }

  return occurrences.filter((o) => overlaps(o, window)).map(toCalendarEvent);
}

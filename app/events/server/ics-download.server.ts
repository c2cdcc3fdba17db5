// One event as an .ics file for "add to calendar": a VCALENDAR with that one VEVENT.
// ical.js writes it (escaping commas, semicolons and newlines); lines are then folded at 75 octets
// (foldLines: ical.js folds by characters).
import ICAL from "ical.js";
import type { CalendarEvent, EventTime } from "~/events/model";
import { instantOf } from "~/events/time";
import { descriptionTextOf } from "./description.server";
import { foldLines } from "./ics-text.server";

function toIcalTime(time: EventTime): ICAL.Time {
  if ("date" in time) return ICAL.Time.fromDateString(time.date);
  return ICAL.Time.fromJSDate(new Date(time.dateTime), true); // as UTC: no VTIMEZONE needed
}

/**
 * The file's DTSTAMP: when the calendar last changed the event when it says (RFC 5545 §3.8.7.2 for
 * files without METHOD's scheduling), else its start: never the time of the download, so the same
 * event gives the same bytes on every server.
 */
export function stampOf(event: CalendarEvent): Date {
  const updated = event.updated ? Date.parse(event.updated) : Number.NaN;
  if (!Number.isNaN(updated)) return new Date(updated);
  const start = instantOf(event.start);
  return new Date(Number.isNaN(start) ? 0 : start);
}

export function eventToIcs(event: CalendarEvent, options: { uidDomain: string; stamp?: Date }): string {
  const calendar = new ICAL.Component("vcalendar");
  calendar.addPropertyWithValue("version", "2.0");
  calendar.addPropertyWithValue("prodid", "-//Founders Circle//Events//EN");
  calendar.addPropertyWithValue("calscale", "GREGORIAN");
  calendar.addPropertyWithValue("method", "PUBLISH");

  const vevent = new ICAL.Component("vevent");
  vevent.addPropertyWithValue("uid", `${event.id}@${options.uidDomain}`);
  vevent.addPropertyWithValue("dtstamp", ICAL.Time.fromJSDate(options.stamp ?? stampOf(event), true));
  // A start kept as written (unparseable) cannot be a DTSTART: the file then has none, as for no start.
  if (event.start && !Number.isNaN(instantOf(event.start))) {
    const start = toIcalTime(event.start);
    vevent.addPropertyWithValue("dtstart", start);
    if (event.end && !Number.isNaN(instantOf(event.end))) vevent.addPropertyWithValue("dtend", toIcalTime(event.end));
  }
  vevent.addPropertyWithValue("summary", event.summary ?? "Untitled Event");
  if (event.location) vevent.addPropertyWithValue("location", event.location);
  const text = descriptionTextOf(event.description).descriptionText;
  if (text) vevent.addPropertyWithValue("description", text);
  calendar.addSubcomponent(vevent);
  return foldLines(calendar.toString()) + "\r\n";
}

/** A file name from the title: lower-case ASCII words joined by "-". */
export function icsFileName(event: CalendarEvent): string {
  const slug = (event.summary ?? "")
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${slug || "event"}.ics`;
}

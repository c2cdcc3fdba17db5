// iCalendar text: real feeds before ical.js reads them, and the line folding of what we serve.
// A feed's VEVENT lines are checked one by one, so one odd line costs that line (or that event),
// never the feed. ical.js parses loosely and throws later, when a value is used, so a value it
// cannot read must be caught here, where the raw text is.
import ICAL from "ical.js";
import { ianaZone } from "./time-zones.server";

/** What was left out of one VEVENT: its UID (never its content) and the properties dropped. */
export type Unreadable = { uid: string; properties: string[]; skipped: boolean };

export type CleanedIcs = { text: string; unreadable: Unreadable[] };

/** A start that is not a date: kept as written for the page (spec §8); FORM says how it was written. */
export const RAW_START_PROPERTY = "X-FC-UNREADABLE-DTSTART";
export const RAW_FORM_PARAMETER = "X-FC-FORM";

const DATE_PROPERTIES = new Set(["DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "EXDATE", "RDATE"]);
/** Without these the event would be another event: when one cannot be read, the VEVENT is skipped. */
const ESSENTIAL = new Set(["RRULE"]);

type Line = { name: string; params: [string, string][]; value: string };

/** Splits a content line at the first colon outside quotes; parameters at semicolons outside quotes. */
function splitLine(line: string): Line | undefined {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === ";" || c === ":")) {
      parts.push(line.slice(start, i));
      start = i + 1;
      if (c === ":") {
        const [name, ...params] = parts;
        if (!name) return undefined;
        return {
          name: name.toUpperCase(),
          params: params.map((p) => {
            const eq = p.indexOf("=");
            return eq < 0 ? [p.toUpperCase(), ""] : [p.slice(0, eq).toUpperCase(), p.slice(eq + 1)];
          }),
          value: line.slice(i + 1),
        };
      }
    }
  }
  return undefined;
}

function joinLine({ name, params, value }: Line): string {
  return [name, ...params.map(([k, v]) => `${k}=${v}`)].join(";") + ":" + value;
}

const DATE = /^(\d{4})(\d{2})(\d{2})$/;
const DATE_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z?$/;

function isRealDate(year: string, month: string, day: string): boolean {
  const d = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return d.getUTCFullYear() === Number(year) && d.getUTCMonth() === Number(month) - 1 && d.getUTCDate() === Number(day);
}

function formOf(value: string): "date" | "date-time" | "period" | undefined {
  const date = DATE.exec(value);
  if (date) return isRealDate(date[1]!, date[2]!, date[3]!) ? "date" : undefined;
  const dateTime = DATE_TIME.exec(value);
  if (dateTime) {
    const [hour, minute, second] = [Number(dateTime[4]), Number(dateTime[5]), Number(dateTime[6])];
    return isRealDate(dateTime[1]!, dateTime[2]!, dateTime[3]!) && hour < 24 && minute < 60 && second <= 60 ? "date-time" : undefined;
  }
  const slash = value.indexOf("/");
  return slash > 0 && formOf(value.slice(0, slash)) === "date-time" ? "period" : undefined;
}

/**
 * A date or date-time property as its author meant it: a bare date is a date (VALUE=DATE added),
 * a quoted or Windows TZID becomes the IANA name, a list mixing forms is split into one line per
 * form. Undefined when a value is not a date at all.
 */
function cleanDateLine(line: Line): string[] | undefined {
  const params = line.params
    .filter(([key]) => key !== "VALUE")
    .map(([key, value]): [string, string] => {
      if (key !== "TZID") return [key, value];
      const unquoted = value.replace(/^"(.*)"$/, "$1");
      const zone = ianaZone(unquoted) ?? unquoted;
      // ical.js reads a quoted TZID; an unknown one stays as written (a VTIMEZONE may define it).
      return [key, /[;:,]/.test(zone) ? `"${zone}"` : zone];
    });
  const values = line.value.split(",").map((v) => v.trim());
  const forms = values.map(formOf);
  // Only RDATE may hold a PERIOD (RFC 5545 §3.8.5.2).
  if (forms.some((f) => f === undefined || (f === "period" && line.name !== "RDATE"))) return undefined;
  const byForm = new Map<string, string[]>();
  values.forEach((v, i) => byForm.set(forms[i]!, [...(byForm.get(forms[i]!) ?? []), v]));
  return [...byForm].map(([form, group]) => {
    // A date has no zone: a TZID beside it means nothing, and ical.js would keep it as a zone.
    const own = form === "date" ? params.filter(([key]) => key !== "TZID") : params;
    const typed: [string, string][] = form === "date-time" ? own : [...own, ["VALUE", form.toUpperCase()]];
    return joinLine({ name: line.name, params: typed, value: group.join(",") });
  });
}

/** Whether ical.js can read every value of this property (it throws only when a value is used). */
function readable(line: string): boolean {
  try {
    ICAL.Property.fromString(line).getValues();
    return true;
  } catch {
    return false;
  }
}

/** The UID of a VEVENT's lines, for the log: printable characters only, at most 120. */
function uidOf(lines: string[]): string {
  const uid = lines.map(splitLine).find((l) => l?.name === "UID")?.value ?? "(no UID)";
  return uid.replace(/[^\x20-\x7e]/g, "?").slice(0, 120);
}

function cleanEvent(lines: string[], unreadable: Unreadable[]): string[] {
  const out: string[] = [];
  const dropped: string[] = [];
  let skipped = false;
  let depth = 0; // VALARM and other nested components pass as written
  for (const raw of lines) {
    const line = splitLine(raw);
    if (!line) {
      dropped.push("(not a property)");
      continue;
    }
    if (line.name === "BEGIN") depth++;
    if (depth > 0) {
      if (line.name === "END") depth--;
      out.push(raw);
      continue;
    }
    if (line.name === "END") {
      dropped.push("END without BEGIN");
      continue;
    }
    if (DATE_PROPERTIES.has(line.name)) {
      const cleaned = cleanDateLine(line);
      if (cleaned) out.push(...cleaned);
      else if (line.name === "DTSTART") {
        const form = line.params.some(([k, v]) => k === "VALUE" && v.toUpperCase() === "DATE") ? "DATE" : "DATE-TIME";
        out.push(joinLine({ name: RAW_START_PROPERTY, params: [[RAW_FORM_PARAMETER, form]], value: line.value }));
        dropped.push(line.name);
      } else dropped.push(line.name);
      continue;
    }
    if (readable(raw)) out.push(raw);
    else {
      dropped.push(line.name);
      if (ESSENTIAL.has(line.name)) skipped = true;
    }
  }
  // A nested component (VALARM) left open would make the whole file unreadable to ical.js.
  if (depth > 0) skipped = true;
  if (dropped.length > 0 || skipped) unreadable.push({ uid: uidOf(lines), properties: dropped, skipped });
  return skipped ? [] : out;
}

/** Unfolded content lines (RFC 5545 §3.1: a line starting with a space or tab continues the previous one). */
export function unfold(text: string): string[] {
  const lines: string[] = [];
  // Some exporters put a byte-order mark, blank lines or spaces before BEGIN:VCALENDAR.
  for (const line of text.replace(/^[\uFEFF\s]+/, "").split(/\r\n|\n|\r/)) {
    if ((line.startsWith(" ") || line.startsWith("\t")) && lines.length > 0) lines[lines.length - 1] += line.slice(1);
    else if (line.trim()) lines.push(line);
  }
  return lines;
}

/** Whether the text is an iCalendar object at all (its first line opens a VCALENDAR). */
export function looksLikeICalendar(lines: string[]): boolean {
  return /^BEGIN:VCALENDAR\s*$/i.test(lines[0] ?? "");
}

/**
 * The feed's text with every VEVENT cleaned (see cleanEvent). Other components pass as written,
 * less the lines ical.js would refuse (a line that is not a property fails the whole parse).
 */
export function cleanIcsText(lines: string[]): CleanedIcs {
  const out: string[] = [];
  const unreadable: Unreadable[] = [];
  let event: string[] | undefined;
  for (const line of lines) {
    const upper = line.trim().toUpperCase();
    if (event) {
      if (upper === "END:VEVENT") {
        const cleaned = cleanEvent(event.slice(1), unreadable);
        if (cleaned.length > 0) out.push("BEGIN:VEVENT", ...cleaned, "END:VEVENT");
        event = undefined;
      } else event.push(line);
    } else if (upper === "BEGIN:VEVENT") event = [line];
    else if (/^(BEGIN|END):/.test(upper) || readable(line)) out.push(line);
  }
  if (event) {
    // Cut off before its END:VEVENT (a truncated feed): the event is left out, the calendar closed.
    unreadable.push({ uid: uidOf(event), properties: ["END:VEVENT"], skipped: true });
    if (!/^END:VCALENDAR$/i.test(out.at(-1) ?? "")) out.push("END:VCALENDAR");
  }
  return { text: out.join("\r\n"), unreadable };
}

/**
 * Unfolds, then folds every line at 75 octets, never inside a UTF-8 character, with CRLF line
 * ends (RFC 5545 §3.1); continuation lines start with one space.
 */
export function foldLines(text: string): string {
  const encoder = new TextEncoder();
  return text
    .replace(/\r?\n[ \t]/g, "")
    .split(/\r?\n/)
    .map((line) => {
      const parts: string[] = [];
      let current = "";
      let octets = 0;
      let limit = 75;
      for (const char of line) {
        const size = encoder.encode(char).length;
        if (octets + size > limit) {
          parts.push(current);
          current = "";
          octets = 0;
          limit = 74; // the leading space counts
        }
        current += char;
        octets += size;
      }
      parts.push(current);
      return parts.join("\r\n ");
    })
    .join("\r\n");
}

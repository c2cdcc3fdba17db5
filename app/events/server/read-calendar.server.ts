// One read of the calendar, start to finish: fetch what the source sends and, unless it is what the
// last read brought, convert it into the events the site serves: validated, descriptions sanitized,
// sorted, serialised once as JSON, with a hash of that JSON (`eventsJsonHash`). In the built server this runs in the
// calendar worker's process (read-worker.server.ts), so none of it holds the event loop; in development and
// unit tests, on the calling thread.
import { createHash } from "node:crypto";
import type { CalendarEvent } from "~/events/model";
import type { EventsLog, ReadResult, RestoredCopy } from "./cache.server";
import { readArrived, type UpstreamOptions } from "./fetch-upstream.server";
import { fetchGooglePages, GOOGLE_LABEL, googleEventsOf } from "./google-source.server";
import { fetchIcsText, readIcsEvents } from "./ics-source.server";
import sampleCalendar from "./sample-calendar.ics?raw";
import { savedCopyFile } from "./saved-copy.server";
import { eventsWindow, startInstant } from "./time.server";

/** What the worker needs to read a source (plain data: it is sent to the worker's process). */
export type CalendarSourceConfig =
  { kind: "google"; calendarId: string; apiKey: string; baseUrl: string } | { kind: "ics"; url: string } | { kind: "sample" };

/** By start ascending (all-day dates at New York midnight), then end, then id; one event per id. */
export function sortEvents(events: CalendarEvent[]): CalendarEvent[] {
  const seen = new Set<string>();
  return events
    .filter((e) => !seen.has(e.id) && seen.add(e.id))
    .sort(
      (a, b) =>
        startInstant(a.start) - startInstant(b.start) ||
        startInstant(a.end) - startInstant(b.end) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
}

/** The events as JSON bytes (their own buffer: sent from the worker's process, they carry nothing else) and a hash of those bytes. */
export function serializeEvents(events: CalendarEvent[]): { json: Uint8Array; eventsJsonHash: string } {
  const json = new TextEncoder().encode(JSON.stringify(events));
  return { json, eventsJsonHash: createHash("sha256").update(json).digest("base64url").slice(0, 22) };
}

const DAY = 86_400_000;
const responseHashOf = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("base64url");

/**
 * One read of `source` at `now`. When what the source sent (for the same window) has the hash
 * `lastResponseHash`, the answer is `changed: false` and nothing after the fetch runs.
 */
export async function readCalendar(
  source: CalendarSourceConfig,
  now: number,
  lastResponseHash: string | undefined,
  upstream: UpstreamOptions,
  signal?: AbortSignal,
): Promise<ReadResult> {
  if (source.kind === "google") {
    const pages = await fetchGooglePages(source, eventsWindow(new Date(now)), upstream, signal);
    // The items as Google sent them (page tokens aside, which need not repeat).
    const responseHash = responseHashOf(JSON.stringify(pages.upcoming.items), JSON.stringify(pages.past.items));
    if (responseHash === lastResponseHash) return { changed: false, responseHash };
    const events = sortEvents(await readArrived(GOOGLE_LABEL, () => googleEventsOf(pages, upstream)));
    return { changed: true, responseHash, events, ...serializeEvents(events) };
  }
  const text = source.kind === "ics" ? await fetchIcsText(source.url, upstream, signal) : sampleCalendar;
  // A feed is expanded from the start of the day (UTC): every read of one day expands the same
  // window, so a feed that has not changed reads as unchanged.
  const window = eventsWindow(new Date(now - (now % DAY)));
  const responseHash = responseHashOf(source.kind, window.start.toISOString(), text);
  if (responseHash === lastResponseHash) return { changed: false, responseHash };
  const events = sortEvents(await readIcsEvents(text, window, upstream.log));
  return { changed: true, responseHash, events, ...serializeEvents(events) };
}

/** The saved copy on disk, read, validated and serialised (at start-up, in the worker). */
export function restoreSavedCopy(
  file: string,
  calendarIdentityHash: string,
  now: number,
  maxAgeMs: number,
  log: EventsLog,
): RestoredCopy | undefined {
  const saved = savedCopyFile(file, calendarIdentityHash, log).load(now, maxAgeMs);
  return saved && { ...saved, ...serializeEvents(saved.events) };
}

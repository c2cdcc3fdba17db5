// Google Calendar API v3 events.list: all single events in the window, every page.
import { z } from "zod";
import type { CalendarEvent, EventTime } from "~/events/model";
import { PRODUCTION_TIMINGS } from "~/timings.server";
import { MAX_BODY_BYTES, readJson, requestUpstream, sizeLabel, UpstreamError, type UpstreamOptions } from "./fetch-upstream.server";
import { urlSafeId } from "./ids.server";
import { readDescription } from "./description.server";
import { EVENTS_TIME_ZONE, toZonedRfc3339 } from "~/events/time";
import type { Window } from "./time.server";

export type GoogleSourceConfig = { calendarId: string; apiKey: string; baseUrl: string };

/**
 * Events a page (events.list maxResults). With only our fields (GOOGLE_FIELDS) a community's
 * event with a 1.5 KB rich description is about 1.9 KB of JSON, so a page is about 0.9 MB (the
 * bench's generated calendar: tests/fakes/google-events.ts): a page reaches the 5 MB body limit
 * only when its events average over 10 KB each. Google's own largest page (2,500) would be 4.5 MB
 * for that calendar, a hair under the limit.
 */
export const GOOGLE_PAGE_SIZE = 500;
/**
 * Google's partial response: only what fromGoogleEvent reads (and the token to go on). Google
 * leaves out every other field (etag, htmlLink, creator, conferenceData…): a third less to send.
 */
export const GOOGLE_FIELDS = "nextPageToken,items(id,status,summary,description,location,start,end,updated)";
/**
 * Limits of one read. Pages per part (upcoming, past) stop a token that never ends; maxEvents
 * bounds memory and the answer. Past the limit the oldest past events go first: never upcoming ones.
 */
export type GoogleLimits = { maxPages: number; maxEvents: number };
/** The most events a calendar holds in the window that we read in full: Google's documented maximum. */
const MAX_EVENTS = 25_000;
/** Each part may hold all of MAX_EVENTS, in pages as short as half of GOOGLE_PAGE_SIZE (Google may send short pages). */
export const GOOGLE_LIMITS: GoogleLimits = { maxPages: (2 * MAX_EVENTS) / GOOGLE_PAGE_SIZE, maxEvents: MAX_EVENTS };
export const GOOGLE_LABEL = "Google Calendar";

const timeSchema = z.object({
  date: z.string().optional(),
  dateTime: z.string().optional(),
  timeZone: z.string().optional(),
});

// Only what we use; Google's other fields pass unchecked and are dropped.
const eventSchema = z.object({
  id: z.string().min(1),
  status: z.string().optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  location: z.string().optional(),
  start: timeSchema.optional(),
  end: timeSchema.optional(),
  updated: z.string().optional(),
});

// Items are checked one by one (see readItems): one odd item is dropped, not the page.
const listSchema = z.object({
  kind: z.literal("calendar#events").optional(),
  items: z.array(z.unknown()).default([]),
  nextPageToken: z.string().min(1).optional(),
});

export type GoogleEvent = z.infer<typeof eventSchema>;

/** The public iCal address of a Google calendar (works when the calendar is public). */
export function googleSubscribeUrl(calendarId: string): string {
  return `https://calendar.google.com/calendar/ical/${encodeURIComponent(calendarId)}/public/basic.ics`;
}

/** Google's timeMin bounds an event's end, timeMax its start: an event running at `now` is in both parts. */
export function googleListUrl(config: GoogleSourceConfig, range: Window, pageToken?: string): string {
  const base = config.baseUrl.replace(/\/+$/, "");
  const params = new URLSearchParams({
    key: config.apiKey,
    singleEvents: "true",
    orderBy: "startTime",
    timeMin: range.start.toISOString(),
    timeMax: range.end.toISOString(),
    maxResults: String(GOOGLE_PAGE_SIZE),
    fields: GOOGLE_FIELDS,
    // Google pretty-prints by default: a fifth of a page is indentation.
    prettyPrint: "false",
  });
  if (pageToken) params.set("pageToken", pageToken);
  return `${base}/calendars/${encodeURIComponent(config.calendarId)}/events?${params}`;
}

/** The reasons in a Google error body (error.errors[].reason); none when it is not Google's error JSON. */
function googleErrorReasons(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { error?: { errors?: { reason?: unknown }[] } };
    const errors = Array.isArray(parsed.error?.errors) ? parsed.error.errors : [];
    return errors.map((e) => e.reason).filter((reason): reason is string => typeof reason === "string");
  } catch {
    return [];
  }
}

/** Google says "slow down" with 403 + usageLimits reasons as well as 429; those are worth a retry. */
export function isGoogleRateLimit(status: number, body: string): boolean {
  if (status === 429 || status >= 500) return true;
  if (status !== 403) return false;
  return googleErrorReasons(body).some((reason) => reason === "rateLimitExceeded" || reason === "userRateLimitExceeded");
}

/** 403 reasons for an exhausted quota or rate limit: the key works, the project is over its limits. */
const USAGE_LIMIT_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded", "dailyLimitExceeded"]);
const QUOTA_REASONS = new Set(["quotaExceeded", "dailyLimitExceeded"]);

/** The usage-limit reason of a Google 403, if that is what it is. */
export function googleUsageLimit(status: number, body: string): string | undefined {
  return status === 403 ? googleErrorReasons(body).find((reason) => USAGE_LIMIT_REASONS.has(reason)) : undefined;
}

/**
 * One part of the window, every page up to the limit; `capped` when Google had more pages;
 * `cutAtPage` when a page after the first was over the body limit (the part ends before it).
 */
type Part = { items: unknown[]; capped: boolean; cutAtPage?: number };
type PartName = "upcoming" | "past";

async function readPart(
  name: PartName,
  config: GoogleSourceConfig,
  range: Window,
  options: UpstreamOptions,
  maxPages: number,
  signal?: AbortSignal,
): Promise<Part> {
  const items: unknown[] = [];
  let pageToken: string | undefined;
  for (let page = 1; page <= maxPages; page++) {
    let list: z.infer<typeof listSchema>;
    // The body of a 403 tells a quota problem from a refused key; the error only carries the status.
    let usageLimit: string | undefined;
    try {
      list = await requestUpstream(
        {
          url: googleListUrl(config, range, pageToken),
          label: GOOGLE_LABEL,
          accept: "application/json",
          read: readJson(listSchema, GOOGLE_LABEL),
          retryableStatus: (status, body) => {
            usageLimit = googleUsageLimit(status, body);
            return isGoogleRateLimit(status, body);
          },
          signal,
        },
        options,
      );
    } catch (error) {
      // A page over the limit after the first: what was read is kept (the caller logs the cut).
      // A first page over it fails the read, so the last good copy stays served: see fetchGoogleEvents.
      if (error instanceof UpstreamError && error.kind === "too-large") {
        if (page > 1) return { items, capped: false, cutAtPage: page };
        options.log(
          `[events] ${GOOGLE_LABEL}: page 1 of the ${name} events is larger than the ${sizeLabel(options.maxBodyBytes ?? MAX_BODY_BYTES)} limit for one answer: nothing of this read is shown, the last good copy (if any) stays`,
        );
      }
      if (error instanceof UpstreamError && error.status === 404) {
        options.log(
          "[events] configuration error: Google Calendar answered 404 for GOOGLE_CALENDAR_ID: the id is wrong or the calendar is not public",
        );
      } else if (error instanceof UpstreamError && error.status === 403 && usageLimit) {
        options.log(`[events] Google Calendar usage limits exceeded (${usageLimit}): the API key's project is over its Calendar API quota`);
        // An exhausted quota does not come back in seconds: asking again soon only burns what is left of it.
        const { quotaHoldOffMs = PRODUCTION_TIMINGS.quotaHoldOffMs, rateLimitHoldOffMs = PRODUCTION_TIMINGS.rateLimitHoldOffMs } = options;
        throw error.holdingOff(QUOTA_REASONS.has(usageLimit) ? quotaHoldOffMs : rateLimitHoldOffMs);
      } else if (error instanceof UpstreamError && (error.status === 400 || error.status === 403) && !error.retryable) {
        options.log("[events] configuration error: Google Calendar refused the request: check GOOGLE_API_KEY and its API restrictions");
      }
      throw error;
    }
    items.push(...list.items);
    // A short or even empty page can still carry a token: only its absence ends the list.
    pageToken = list.nextPageToken;
    if (!pageToken) return { items, capped: false };
  }
  return { items, capped: true };
}

/** The items the schema accepts, as events; the ids of the rest (or their place) for the log. */
function readItems(items: unknown[], unreadable: string[]): CalendarEvent[] {
  const events: CalendarEvent[] = [];
  for (const item of items) {
    const parsed = eventSchema.safeParse(item);
    if (!parsed.success) {
      const id = (item as { id?: unknown } | null)?.id;
      unreadable.push(typeof id === "string" ? JSON.stringify(id.slice(0, 120)) : "(an item without an id)");
      continue;
    }
    const event = fromGoogleEvent(parsed.data);
    if (event) events.push(event);
  }
  return events;
}

/** What one read fetched: every page's items of each part of the window, before any conversion. */
export type GooglePages = { upcoming: Part; past: Part };

/** Every event in the window, ascending: fetchGooglePages, then googleEventsOf. */
export async function fetchGoogleEvents(
  config: GoogleSourceConfig,
  window: Window,
  options: UpstreamOptions,
  signal?: AbortSignal,
  limits: GoogleLimits = GOOGLE_LIMITS,
): Promise<CalendarEvent[]> {
  return googleEventsOf(await fetchGooglePages(config, window, options, signal, limits), options, limits);
}

/**
 * Every page of the window, as Google sends them. The upcoming part ([now, end)) is read on its own, beside
 * the past part ([start, now)): a limit reached in one never costs the other, and past the event
 * limit the oldest past events are left out (never upcoming ones) and counted in the log.
 *
 * The body limit holds for each page. A page over it after the first ends its part there: the
 * events read so far are served and the cut is logged, so a calendar that grows never goes dark.
 * A first page over it fails the read (logged): a part with nothing in it would replace the last
 * good copy with one missing every upcoming (or past) event, while a failed read keeps that copy
 * served, marked stale; and a GOOGLE_PAGE_SIZE page over 5 MB (10 KB an event) is a runaway
 * answer, not a calendar that grew.
 */
export async function fetchGooglePages(
  config: GoogleSourceConfig,
  window: Window,
  options: UpstreamOptions,
  signal?: AbortSignal,
  limits: GoogleLimits = GOOGLE_LIMITS,
): Promise<GooglePages> {
  const now = new Date(Math.min(Math.max((window.now ?? new Date()).getTime(), window.start.getTime()), window.end.getTime()));
  // Both parts at once: a read takes one round trip, not two. They share one fate (the first
  // failure stops the other) and one log (a line both would write, such as a bad key, is written once).
  const stop = new AbortController();
  const written = new Set<string>();
  const partOptions: UpstreamOptions = {
    ...options,
    log: (message) => {
      if (stop.signal.aborted || written.has(message)) return;
      written.add(message);
      options.log(message);
    },
  };
  const partSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let firstFailure: unknown;
  const read = (name: PartName, range: Window) =>
    readPart(name, config, range, partOptions, limits.maxPages, partSignal).catch((error: unknown) => {
      firstFailure ??= error;
      stop.abort();
      throw error;
    });
  // A failed read returns once the part it stopped has ended too: nothing of it goes on asking Google.
  const [upcoming, past] = await Promise.allSettled([
    read("upcoming", { start: now, end: window.end }),
    read("past", { start: window.start, end: now }),
  ]);
  if (upcoming.status === "rejected" || past.status === "rejected") throw firstFailure;
  logCut(options, "upcoming", upcoming.value);
  logCut(options, "past", past.value);
  return { upcoming: upcoming.value, past: past.value };
}

/**
 * The events of what fetchGooglePages read: each item validated and converted, an event running at
 * the split kept once, the event limit applied (the oldest past events go first), and what was left
 * out logged.
 */
export function googleEventsOf(
  { upcoming, past }: GooglePages,
  options: Pick<UpstreamOptions, "log">,
  limits: GoogleLimits = GOOGLE_LIMITS,
): CalendarEvent[] {
  const unreadable: string[] = [];
  const upcomingEvents = readItems(upcoming.items, unreadable);
  const upcomingIds = new Set(upcomingEvents.map((e) => e.id));
  let pastEvents = readItems(past.items, unreadable).filter((e) => !upcomingIds.has(e.id)); // running at `now`: in both lists
  if (unreadable.length > 0) {
    options.log(
      `[events] ${GOOGLE_LABEL}: ${unreadable.length} unreadable ${unreadable.length === 1 ? "event" : "events"} left out, the rest is shown: ${unreadable.slice(0, 20).join(", ")}`,
    );
  }
  if (upcoming.capped)
    options.log(`[events] ${GOOGLE_LABEL} has more than ${limits.maxPages} pages of upcoming events; the latest are left out`);
  if (past.capped)
    options.log(
      `[events] ${GOOGLE_LABEL} has more than ${limits.maxPages} pages of past events in the window; the most recent past ones are left out`,
    );

  const room = Math.max(0, limits.maxEvents - upcomingEvents.length);
  if (pastEvents.length > room) {
    const left = pastEvents.length - room;
    pastEvents = pastEvents.slice(left);
    options.log(
      `[events] ${GOOGLE_LABEL} has more than ${limits.maxEvents} events in the window: the ${left} oldest past events are left out`,
    );
  }
  return [...pastEvents, ...upcomingEvents.slice(0, limits.maxEvents)];
}

/**
 * A part cut short by a page over the body limit: which part, from which page on, and what is
 * still shown. Pages come in start order, so the upcoming part loses its latest events and the
 * past part its most recent ones.
 */
function logCut(options: Pick<UpstreamOptions, "log" | "maxBodyBytes">, name: PartName, part: Part): void {
  if (part.cutAtPage === undefined) return;
  const limit = sizeLabel(options.maxBodyBytes ?? MAX_BODY_BYTES);
  const lost = name === "upcoming" ? "the latest upcoming events" : "the most recent past events";
  options.log(
    `[events] ${GOOGLE_LABEL}: page ${part.cutAtPage} of the ${name} events is larger than the ${limit} limit for one answer: ${lost} (from page ${part.cutAtPage} on) are left out; the ${part.items.length} ${name} events of pages 1 to ${part.cutAtPage - 1} are shown`,
  );
}

/** As written when Google's value cannot be read: spec §8 shows an unparseable date as it is. */
function toEventTime(time: z.infer<typeof timeSchema> | undefined): EventTime | undefined {
  if (!time) return undefined;
  if (time.dateTime) {
    const ms = Date.parse(time.dateTime);
    const timeZone = time.timeZone ? { timeZone: time.timeZone } : {};
    if (Number.isNaN(ms)) return { dateTime: time.dateTime, ...timeZone };
    return { dateTime: toZonedRfc3339(ms, EVENTS_TIME_ZONE), ...timeZone };
  }
  if (time.date) return { date: time.date };
  return undefined;
}
/** Google's event resource as our CalendarEvent; cancelled ones are dropped (undefined). */
export function fromGoogleEvent(item: GoogleEvent): CalendarEvent | undefined {
  if (item.status === "cancelled") return undefined;
  const start = toEventTime(item.start);
  const end = toEventTime(item.end);
  const event: CalendarEvent = { id: urlSafeId(item.id) };
  const summary = item.summary?.trim();
  if (summary) event.summary = summary;
  Object.assign(event, readDescription(item.description));
  const location = item.location?.trim();
  if (location) event.location = location;
  if (start) event.start = start;
  if (end) event.end = end;
  const updated = item.updated ? Date.parse(item.updated) : Number.NaN;
  if (!Number.isNaN(updated)) event.updated = new Date(updated).toISOString();
  return event;
}

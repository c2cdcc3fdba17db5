// Google Calendar API v3 events.list: all single events in the window, every page.
import { z } from "zod";
import type { CalendarEvent, EventTime } from "~/events/model";
import { readJson, requestUpstream, UpstreamError, type UpstreamOptions } from "./fetch-upstream.server";
import { urlSafeId } from "./ids.server";
import { descriptionToHtml } from "./sanitize.server";
import { DISPLAY_TIME_ZONE, isDateOnly, toZonedRfc3339, type Window } from "./time.server";

export type GoogleSourceConfig = { calendarId: string; apiKey: string; baseUrl: string };

export const GOOGLE_MAX_PAGES = 10;
export const GOOGLE_PAGE_SIZE = 250;
const LABEL = "Google Calendar";

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
});

const listSchema = z.object({
  kind: z.literal("calendar#events").optional(),
  items: z.array(eventSchema).default([]),
  nextPageToken: z.string().min(1).optional(),
});

export type GoogleEvent = z.infer<typeof eventSchema>;

/** The public iCal address of a Google calendar (works when the calendar is public). */
export function googleSubscribeUrl(calendarId: string): string {
  return `https://calendar.google.com/calendar/ical/${encodeURIComponent(calendarId)}/public/basic.ics`;
}

export function googleListUrl(config: GoogleSourceConfig, window: Window, pageToken?: string): string {
  const base = config.baseUrl.replace(/\/+$/, "");
  const params = new URLSearchParams({
    key: config.apiKey,
    singleEvents: "true",
    orderBy: "startTime",
    timeMin: window.start.toISOString(),
    timeMax: window.end.toISOString(),
    maxResults: String(GOOGLE_PAGE_SIZE),
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

/** The usage-limit reason of a Google 403, if that is what it is. */
export function googleUsageLimit(status: number, body: string): string | undefined {
  return status === 403 ? googleErrorReasons(body).find((reason) => USAGE_LIMIT_REASONS.has(reason)) : undefined;
}

export async function fetchGoogleEvents(
  config: GoogleSourceConfig,
  window: Window,
  options: UpstreamOptions,
  signal?: AbortSignal,
): Promise<CalendarEvent[]> {
  const events: CalendarEvent[] = [];
  let pageToken: string | undefined;
  for (let page = 1; page <= GOOGLE_MAX_PAGES; page++) {
    let list: z.infer<typeof listSchema>;
    // The body of a 403 tells a quota problem from a refused key; the error only carries the status.
    let usageLimit: string | undefined;
    try {
      list = await requestUpstream(
        {
          url: googleListUrl(config, window, pageToken),
          label: LABEL,
          accept: "application/json",
          read: readJson(listSchema, LABEL),
          retryableStatus: (status, body) => {
            usageLimit = googleUsageLimit(status, body);
            return isGoogleRateLimit(status, body);
          },
          signal,
        },
        options,
      );
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 404) {
        options.log(
          "[events] configuration error: Google Calendar answered 404 for GOOGLE_CALENDAR_ID: the id is wrong or the calendar is not public",
        );
      } else if (error instanceof UpstreamError && error.status === 403 && usageLimit) {
        options.log(`[events] Google Calendar usage limits exceeded (${usageLimit}): the API key's project is over its Calendar API quota`);
      } else if (error instanceof UpstreamError && (error.status === 400 || error.status === 403) && !error.retryable) {
        options.log("[events] configuration error: Google Calendar refused the request: check GOOGLE_API_KEY and its API restrictions");
      }
      throw error;
    }
    for (const item of list.items) {
      const event = fromGoogleEvent(item);
      if (event) events.push(event);
    }
    // A short or even empty page can still carry a token: only its absence ends the list.
    pageToken = list.nextPageToken;
    if (!pageToken) return events;
  }
  options.log(`[events] Google Calendar has more than ${GOOGLE_MAX_PAGES} pages of events; later events are left out`);
  return events;
}

function toEventTime(time: z.infer<typeof timeSchema> | undefined): EventTime | undefined {
  if (!time) return undefined;
  if (time.dateTime) {
    const ms = Date.parse(time.dateTime);
    if (Number.isNaN(ms)) return undefined;
    return { dateTime: toZonedRfc3339(ms, DISPLAY_TIME_ZONE), ...(time.timeZone ? { timeZone: time.timeZone } : {}) };
  }
  if (time.date && isDateOnly(time.date)) return { date: time.date };
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
  const description = descriptionToHtml(item.description);
  if (description) event.description = description;
  const location = item.location?.trim();
  if (location) event.location = location;
  if (start) event.start = start;
  if (end) event.end = end;
  return event;
}

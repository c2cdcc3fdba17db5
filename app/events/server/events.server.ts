// The events feature's server entry: which source, one process-wide cache, the API's answer.
import type { Env } from "~/env.server";
import { getEnv } from "~/env.server";
import type { CalendarEvent, EventsResponse } from "~/events/model";
import { SAMPLE_FEED_PATH } from "~/events/links";
import path from "node:path";
import {
  createEventsCache,
  MAX_STALE_MS,
  processEventsLog,
  type CacheStatus,
  type Clock,
  type EventsCache,
  type EventsLog,
} from "./cache.server";
import { defaultUpstreamOptions, type UpstreamOptions } from "./fetch-upstream.server";
import { fetchGoogleEvents, googleSubscribeUrl } from "./google-source.server";
import { fetchIcsEvents, parseIcsEvents } from "./ics-source.server";
import sampleCalendar from "./sample-calendar.ics?raw";
import { snapshotFile, sourceDigest } from "./snapshot-file.server";
import { shareImages } from "./share-images.server";
import { eventsWindow, startInstant } from "./time.server";

export { EventsUnavailableError } from "./cache.server";

export type EventsSource = {
  kind: "google" | "ics" | "sample";
  subscribeUrl: string;
  /** What identifies the calendar (a snapshot of another is never served); none for the bundled sample. */
  identity?: string;
  load: (signal?: AbortSignal) => Promise<CalendarEvent[]>;
};

export type EventsDeps = {
  upstream?: UpstreamOptions;
  clock?: Clock;
  log?: EventsLog;
  /**
   * Called with each list the service starts to serve: a snapshot restored at start, then every good
   * read (the process draws the share cards ahead from it).
   */
  onEvents?: (events: CalendarEvent[]) => void;
  /** Told of every read's outcome (the metrics count them); `restored` is the snapshot file's at start. */
  onReadOutcome?: (read: ReadOutcome) => void;
};

/** One read of the calendar: from the source (`ok`, `failed`) or the snapshot file at start (`restored`); `events` when it brought some. */
export type ReadOutcome = { source: EventsSource["kind"]; outcome: "ok" | "failed" | "restored"; events?: number };

/** Google when GOOGLE_CALENDAR_ID is set, else CALENDAR_ICS_URL, else the bundled sample. */
export function sourceFromEnv(env: Env, deps: EventsDeps = {}): EventsSource {
  const upstream = deps.upstream ?? defaultUpstreamOptions;
  const now = () => new Date((deps.clock ?? Date).now());
  if (env.GOOGLE_CALENDAR_ID && env.GOOGLE_API_KEY) {
    const config = { calendarId: env.GOOGLE_CALENDAR_ID, apiKey: env.GOOGLE_API_KEY, baseUrl: env.GOOGLE_CALENDAR_API_URL };
    return {
      kind: "google",
      subscribeUrl: googleSubscribeUrl(config.calendarId),
      identity: `google\n${config.baseUrl}\n${config.calendarId}`,
      load: (signal) => fetchGoogleEvents(config, eventsWindow(now()), upstream, signal),
    };
  }
  if (env.CALENDAR_ICS_URL) {
    const url = env.CALENDAR_ICS_URL;
    return {
      kind: "ics",
      subscribeUrl: url,
      identity: `ics\n${url}`,
      load: (signal) => fetchIcsEvents(url, eventsWindow(now()), upstream, signal),
    };
  }
  return { kind: "sample", subscribeUrl: SAMPLE_FEED_PATH, load: async () => parseIcsEvents(sampleCalendar, eventsWindow(now())) };
}

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

/** How the events source is doing, for /readyz: no URLs, ids or keys. */
export type EventsStatus = { source: EventsSource["kind"] } & CacheStatus;

/** The API's answer and the digest of its events (the same calendar gives the same one everywhere). */
export type EventsRead = { response: EventsResponse; contentHash: string };

export type EventsService = {
  source: EventsSource;
  getEvents: () => Promise<EventsRead>;
  status: () => EventsStatus;
};

export function createEventsService(env: Env, deps: EventsDeps = {}): EventsService {
  const log = deps.log ?? processEventsLog;
  const upstream = deps.upstream ?? defaultUpstreamOptions;
  // The upstream's lines (each attempt, configuration hints) tell the story of an incident's first
  // failed read; while the incident lasts they go to debug, so an outage is reported once.
  const source = sourceFromEnv(env, {
    ...deps,
    upstream: { ...upstream, log: (message) => (cache.status().consecutiveFailures > 0 ? log.debug(message) : upstream.log(message)) },
  });
  const file =
    source.identity && env.EVENTS_SNAPSHOT_PATH !== "off"
      ? snapshotFile(path.resolve(env.EVENTS_SNAPSHOT_PATH), sourceDigest(source.identity), log)
      : undefined;
  const restored = file?.load((deps.clock ?? Date).now(), MAX_STALE_MS);
  if (restored) {
    deps.onReadOutcome?.({ source: source.kind, outcome: "restored", events: restored.events.length });
    deps.onEvents?.(restored.events);
  }
  const cache: EventsCache = createEventsCache({
    ttlMs: env.EVENTS_CACHE_TTL_SECONDS * 1000,
    clock: deps.clock,
    log,
    restored,
    onRead: (snapshot) => {
      void file?.save(snapshot);
      deps.onEvents?.(snapshot.events);
    },
    load: async () => {
      let events: CalendarEvent[];
      try {
        events = sortEvents(await source.load());
      } catch (error) {
        deps.onReadOutcome?.({ source: source.kind, outcome: "failed" });
        throw error;
      }
      deps.onReadOutcome?.({ source: source.kind, outcome: "ok", events: events.length });
      return events;
    },
  });
  return {
    source,
    status: () => ({ source: source.kind, ...cache.status() }),
    async getEvents() {
      const snapshot = await cache.get();
      const response: EventsResponse = { events: snapshot.events, stale: snapshot.stale, subscribeUrl: source.subscribeUrl };
      // Only a stale copy says when it was read: a fresh answer is the calendar now, the same bytes on every instance.
      if (snapshot.stale) response.updatedAt = new Date(snapshot.fetchedAt).toISOString();
      return { response, contentHash: snapshot.contentHash };
    },
  };
}

let service: EventsService | undefined;
let readObserver: ((read: ReadOutcome) => void) | undefined;

/** Has the process's events service tell `observer` of every read (the metrics); set before the first read. */
export function observeEventsReads(observer: (read: ReadOutcome) => void): void {
  readObserver = observer;
}

function eventsService(): EventsService {
  service ??= createEventsService(getEnv(), {
    onEvents: (events) => shareImages().drawAhead(events),
    onReadOutcome: (read) => readObserver?.(read),
  });
  return service;
}

/**
 * The events for the API and the /events loader, from the process-wide cache.
 * @throws EventsUnavailableError when the source failed and there is no copy (younger than 24 h) to serve.
 */
export function getEvents(): Promise<EventsRead> {
  return eventsService().getEvents();
}

/** The configured source's kind and state (see CacheStatus); reads nothing upstream. */
export function getEventsStatus(): EventsStatus {
  return eventsService().status();
}

/** The bundled sample feed's text when it is the configured source (served at SAMPLE_FEED_PATH). */
export function sampleFeed(): string | undefined {
  return eventsService().source.kind === "sample" ? sampleCalendar : undefined;
}

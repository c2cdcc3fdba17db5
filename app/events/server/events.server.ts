// The events feature's server entry: which source, one process-wide cache, the API's answer, and what
// follows a good read (the saved copy on disk, share cards drawn ahead, listeners such as the answer
// store), apart from the read itself.
import path from "node:path";
import type { Env } from "~/env.server";
import { getEnv } from "~/env.server";
import type { CalendarEvent, EventsResponse } from "~/events/model";
import { SAMPLE_FEED_PATH } from "~/events/links";
import {
  createEventsCache,
  MAX_STALE_MS,
  processEventsLog,
  type CacheStatus,
  type Clock,
  type EventsCache,
  type EventsCopy,
  type EventsLog,
} from "./cache.server";
import { defaultUpstreamOptions, type UpstreamOptions } from "./fetch-upstream.server";
import { googleSubscribeUrl } from "./google-source.server";
import type { CalendarSourceConfig } from "./read-calendar.server";
import { calendarReader } from "./reader.server";
import sampleCalendar from "./sample-calendar.ics?raw";
import { savedCopyFile, sourceDigest } from "./saved-copy.server";
import { shareImages } from "./share-images.server";

export { EventsUnavailableError } from "./cache.server";

export type EventsSource = {
  kind: CalendarSourceConfig["kind"];
  subscribeUrl: string;
  /** What identifies the calendar (a saved copy of another is never served); none for the bundled sample. */
  identity?: string;
  /** What the calendar worker needs to read it. */
  config: CalendarSourceConfig;
};

export type EventsDeps = {
  /** An upstream of the test's (its fetch, its sleep): the read then runs on this thread. */
  upstream?: UpstreamOptions;
  clock?: Clock;
  log?: EventsLog;
  /**
   * Called with each list the service starts to serve: a saved copy restored at start, then every
   * read that changed the calendar (the process draws the share cards ahead from it).
   */
  onEvents?: (events: CalendarEvent[]) => void;
  /** Told of every read's outcome (the metrics count them); `restored` is the saved copy's at start. */
  onReadOutcome?: (read: ReadOutcome) => void;
};

/** One read of the calendar: from the source (`ok`, `failed`) or the saved copy at start (`restored`); `events` when it brought some. */
export type ReadOutcome = { source: EventsSource["kind"]; outcome: "ok" | "failed" | "restored"; events?: number };

/** Google when GOOGLE_CALENDAR_ID is set, else CALENDAR_ICS_URL, else the bundled sample. */
export function sourceFromEnv(env: Env): EventsSource {
  if (env.GOOGLE_CALENDAR_ID && env.GOOGLE_API_KEY) {
    const config = {
      kind: "google" as const,
      calendarId: env.GOOGLE_CALENDAR_ID,
      apiKey: env.GOOGLE_API_KEY,
      baseUrl: env.GOOGLE_CALENDAR_API_URL,
    };
    return {
      kind: "google",
      subscribeUrl: googleSubscribeUrl(config.calendarId),
      identity: `google\n${config.baseUrl}\n${config.calendarId}`,
      config,
    };
  }
  if (env.CALENDAR_ICS_URL) {
    const url = env.CALENDAR_ICS_URL;
    return { kind: "ics", subscribeUrl: url, identity: `ics\n${url}`, config: { kind: "ics", url } };
  }
  return { kind: "sample", subscribeUrl: SAMPLE_FEED_PATH, config: { kind: "sample" } };
}

/** How the events source is doing, for /readyz: no URLs, ids or keys. */
export type EventsStatus = { source: EventsSource["kind"] } & CacheStatus;

/** The API's answer, its events as JSON bytes, and their digest (the same calendar gives the same one everywhere). */
export type EventsRead = { response: EventsResponse; json: Uint8Array; contentHash: string };

export type EventsService = {
  source: EventsSource;
  getEvents: () => Promise<EventsRead>;
  status: () => EventsStatus;
  /** Restores the saved copy (off this thread) and starts the first read: before the server listens. */
  start: () => Promise<void>;
  /** Calls `listener` after each read that changed the calendar. */
  onChange: (listener: () => void) => void;
};

/** An unchanged calendar is written to the saved copy again after this long, so a restart finds it recent. */
const RESAVE_UNCHANGED_MS = 60 * 60 * 1000;

/** Start-up waits at most this long for the saved copy; past it the server listens and the copy follows. */
const RESTORE_WAIT_MS = 5_000;

/** A failing side effect is logged when it starts failing and when it recovers, not at every read. */
function incidentLog(log: EventsLog, what: string) {
  let failing = false;
  return {
    failed(error: unknown) {
      if (!failing)
        log.warn(
          `[events] ${what} failed (${error instanceof Error ? error.message : "unknown error"}); the events are served all the same`,
        );
      failing = true;
    },
    succeeded() {
      if (failing) log.info(`[events] ${what} works again`);
      failing = false;
    },
  };
}

export function createEventsService(env: Env, deps: EventsDeps = {}): EventsService {
  const log = deps.log ?? processEventsLog;
  const upstream = deps.upstream ?? defaultUpstreamOptions;
  const clock = deps.clock ?? { now: () => Date.now() };
  const source = sourceFromEnv(env);
  // The upstream's lines (each attempt, configuration hints) tell the story of an incident's first
  // failed read; while the incident lasts they go to debug, so an outage is reported once.
  const reader = calendarReader(source.config, {
    upstream: { ...upstream, log: (message) => (cache.status().consecutiveFailures > 0 ? log.debug(message) : upstream.log(message)) },
    log,
    ...(deps.upstream ? { inThread: true } : {}),
  });
  const digest = source.identity ? sourceDigest(source.identity) : undefined;
  const file = digest && env.EVENTS_SNAPSHOT_PATH !== "off" ? path.resolve(env.EVENTS_SNAPSHOT_PATH) : undefined;
  const saved = file && digest ? savedCopyFile(file, digest, log) : undefined;
  const listeners: (() => void)[] = [];
  const saving = incidentLog(log, "writing the saved copy");
  const drawing = incidentLog(log, "drawing share cards ahead");
  const restoring = incidentLog(log, "restoring the saved copy");
  let savedAt = Number.NEGATIVE_INFINITY;

  function afterRead(copy: EventsCopy, changed: boolean) {
    deps.onReadOutcome?.({ source: source.kind, outcome: "ok", events: copy.events.length });
    // Saved after a change, and otherwise once an hour: its time says how recent the events are after
    // a restart (answered for 24 h), without rewriting the same calendar at every read.
    if (saved && (changed || copy.fetchedAt - savedAt >= RESAVE_UNCHANGED_MS)) {
      savedAt = copy.fetchedAt;
      saved.save(copy).then(saving.succeeded, saving.failed);
    }
    if (!changed) return;
    try {
      deps.onEvents?.(copy.events);
      drawing.succeeded();
    } catch (error) {
      drawing.failed(error);
    }
    for (const listener of listeners) listener();
  }

  const cache: EventsCache = createEventsCache({
    ttlMs: env.EVENTS_CACHE_TTL_SECONDS * 1000,
    clock,
    log,
    onRead: afterRead,
    load: async (lastDigest) => {
      try {
        return await reader.read(clock.now(), lastDigest);
      } catch (error) {
        deps.onReadOutcome?.({ source: source.kind, outcome: "failed" });
        throw error;
      }
    },
  });

  return {
    source,
    status: () => ({ source: source.kind, ...cache.status() }),
    async getEvents() {
      const copy = await cache.get();
      const response: EventsResponse = { events: copy.events, stale: copy.stale, subscribeUrl: source.subscribeUrl };
      // Only a stale copy says when it was read: a fresh answer is the calendar now, the same bytes on every instance.
      if (copy.stale) response.updatedAt = new Date(copy.fetchedAt).toISOString();
      return { response, json: copy.json, contentHash: copy.contentHash };
    },
    async start() {
      if (file && digest) {
        let timer: NodeJS.Timeout | undefined;
        const restored = reader.restore(file, digest, clock.now(), MAX_STALE_MS).then((copy) => {
          if (!copy) return;
          deps.onReadOutcome?.({ source: source.kind, outcome: "restored", events: copy.events.length });
          cache.restore(copy);
          deps.onEvents?.(copy.events);
        });
        const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, RESTORE_WAIT_MS)));
        await Promise.race([restored.catch((error: unknown) => restoring.failed(error)), waited]);
        clearTimeout(timer);
      }
      cache.prime();
    },
    onChange: (listener) => void listeners.push(listener),
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

/** Restores the saved copy and starts the first read (server.js, before listening). */
export function startEvents(): Promise<void> {
  return eventsService().start();
}

/** Calls `listener` after each read that changed the calendar (the answer store prepares the new answers). */
export function onCalendarChange(listener: () => void): void {
  eventsService().onChange(listener);
}

/** The bundled sample feed's text when it is the configured source (served at SAMPLE_FEED_PATH). */
export function sampleFeed(): string | undefined {
  return eventsService().source.kind === "sample" ? sampleCalendar : undefined;
}

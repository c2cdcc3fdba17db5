// The events feature's server entry: which source, the site's cache, the API's answer, and what
// follows a good read (the saved copy on disk, listeners such as the share cards and the answer
// store), apart from the read itself. Each site (server/site.ts) makes its own service from its
// configuration; loaders reach it through the load context (app/site-parts.server.ts).
import { existsSync } from "node:fs";
import path from "node:path";
import type { Env } from "~/env.server";
import { OLD_SAVED_COPY_DEFAULT_PATH, SAVED_COPY_DEFAULT_PATH } from "~/env.server";
import type { CalendarEvent, EventsResponse } from "~/events/model";
import type { Scrub } from "~/logger.server";
import { SAMPLE_FEED_PATH } from "~/events/links";
import {
  createEventsCache,
  exponentialBackoff,
  MAX_STALE_MS,
  processEventsLog,
  type CacheStatus,
  type Clock,
  type EventsCache,
  type EventsCopy,
  type EventsLog,
} from "./cache.server";
import { upstreamOptions, type UpstreamOptions } from "./fetch-upstream.server";
import { googleSubscribeUrl } from "./google-source.server";
import type { CalendarSourceConfig } from "./read-calendar.server";
import { calendarReader } from "./reader.server";
import sampleCalendar from "./sample-calendar.ics?raw";
import { hashCalendarIdentity, savedCopyFile } from "./saved-copy.server";

export { EventsUnavailableError } from "./cache.server";

export type EventsSource = {
  kind: CalendarSourceConfig["kind"];
  subscribeUrl: string;
  /** What identifies the calendar (kind, address, id: a secret for a private feed), hashed as the saved copy's tag (a copy of another is never served); none for the bundled sample. */
  calendarIdentity?: string;
  /** What the calendar worker needs to read it. */
  config: CalendarSourceConfig;
};

export type EventsDeps = {
  /** The site's scrubber of its secrets, for the calendar worker's stderr (server/site.ts makes it from the site's env). */
  scrub: Scrub;
  /** An upstream of the test's (its fetch, its sleep): the read then runs in this process. */
  upstream?: UpstreamOptions;
  clock?: Clock;
  log?: EventsLog;
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
      calendarIdentity: `google\n${config.baseUrl}\n${config.calendarId}`,
      config,
    };
  }
  if (env.CALENDAR_ICS_URL) {
    const url = env.CALENDAR_ICS_URL;
    return { kind: "ics", subscribeUrl: url, calendarIdentity: `ics\n${url}`, config: { kind: "ics", url } };
  }
  return { kind: "sample", subscribeUrl: SAMPLE_FEED_PATH, config: { kind: "sample" } };
}

/** How the events source is doing, for /readyz: no URLs, ids or keys. */
export type EventsStatus = { source: EventsSource["kind"] } & CacheStatus;

/** The API's answer, its events as JSON bytes, and their hash (the same calendar gives the same one everywhere). */
export type EventsRead = { response: EventsResponse; json: Uint8Array; eventsJsonHash: string };

export type EventsService = {
  source: EventsSource;
  /** Where the saved copy is kept: none when EVENTS_SAVED_COPY_PATH is "off" or the source is the bundled sample. */
  savedCopyPath?: string;
  getEvents: () => Promise<EventsRead>;
  status: () => EventsStatus;
  /** Restores the saved copy (in the calendar worker's process) and starts the first read: before the server listens. */
  start: () => Promise<void>;
  /**
   * Calls `listener` with each list the service starts to serve: a saved copy restored at start,
   * then every read that changed the calendar (share cards are drawn ahead). Returns what removes it.
   */
  onChange: (listener: (events: CalendarEvent[]) => void) => () => void;
  /**
   * Tells `listener` of every read's outcome (the metrics count them, the answer store prepares its
   * answers); `restored` is the saved copy's at start. Returns what removes it.
   */
  onRead: (listener: (read: ReadOutcome) => void) => () => void;
  /** How many listeners are set (onChange and onRead): a closed site leaves none. */
  listenerCount: () => number;
};

/** Adds `listener` to `list`; the function returned removes it (once, whatever else was added). */
function subscribe<T>(list: T[], listener: T): () => void {
  list.push(listener);
  return () => {
    const at = list.indexOf(listener);
    if (at >= 0) list.splice(at, 1);
  };
}

/** An unchanged calendar is written to the saved copy again after this long, so a restart finds it recent. */
const RESAVE_UNCHANGED_MS = 60 * 60 * 1000;

/**
 * The file a restore reads: the saved copy's own or, while the default is in use and only the previous
 * versions' default file exists, that one (an upgrade keeps the saved copy; the next save writes the new file).
 */
export function fileToRestore(file: string, setting: string, log: Pick<EventsLog, "info">, cwd = process.cwd()): string {
  if (setting !== SAVED_COPY_DEFAULT_PATH) return file;
  const old = path.resolve(cwd, OLD_SAVED_COPY_DEFAULT_PATH);
  if (existsSync(file) || !existsSync(old)) return file;
  log.info(`[events] restoring the saved copy from ${OLD_SAVED_COPY_DEFAULT_PATH}, its file before ${SAVED_COPY_DEFAULT_PATH}`);
  return old;
}

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

export function createEventsService(env: Env, deps: EventsDeps): EventsService {
  const log = deps.log ?? processEventsLog;
  const { timings } = env;
  const upstream = deps.upstream ?? upstreamOptions(timings);
  const clock = deps.clock ?? { now: () => Date.now() };
  const source = sourceFromEnv(env);
  // The upstream's lines (each attempt, configuration hints) tell the story of an incident's first
  // failed read; while the incident lasts they go to debug, so an outage is reported once.
  const reader = calendarReader(source.config, {
    upstream: { ...upstream, log: (message) => (cache.status().consecutiveFailures > 0 ? log.debug(message) : upstream.log(message)) },
    log,
    timings,
    scrub: deps.scrub,
    ...(deps.upstream ? { inThread: true } : {}),
  });
  const calendarIdentityHash = source.calendarIdentity ? hashCalendarIdentity(source.calendarIdentity) : undefined;
  const file = calendarIdentityHash && env.EVENTS_SAVED_COPY_PATH !== "off" ? path.resolve(env.EVENTS_SAVED_COPY_PATH) : undefined;
  const saved = file && calendarIdentityHash ? savedCopyFile(file, calendarIdentityHash, log) : undefined;
  const changeListeners: ((events: CalendarEvent[]) => void)[] = [];
  const readListeners: ((read: ReadOutcome) => void)[] = [];
  const saving = incidentLog(log, "writing the saved copy");
  const acting = incidentLog(log, "acting on a calendar change (share cards, answers)");
  let savedAt = Number.NEGATIVE_INFINITY;

  const told = (read: Omit<ReadOutcome, "source">) => {
    for (const listener of [...readListeners]) listener({ source: source.kind, ...read });
  };
  /** Each listener apart: one that throws is its own failure, logged once per incident, not the others'. */
  function changedTo(events: CalendarEvent[]) {
    let failed = false;
    for (const listener of [...changeListeners]) {
      try {
        listener(events);
      } catch (error) {
        failed = true;
        acting.failed(error);
      }
    }
    if (!failed) acting.succeeded();
  }

  function afterRead(copy: EventsCopy, changed: boolean) {
    told({ outcome: "ok", events: copy.events.length });
    // Saved after a change, and otherwise once an hour: its time says how recent the events are after
    // a restart (answered for 24 h), without rewriting the same calendar at every read.
    if (saved && (changed || copy.fetchedAt - savedAt >= RESAVE_UNCHANGED_MS)) {
      savedAt = copy.fetchedAt;
      saved.save(copy).then(saving.succeeded, saving.failed);
    }
    if (changed) changedTo(copy.events);
  }

  const cache: EventsCache = createEventsCache({
    ttlMs: timings.calendarTtlMs,
    maxWaitMs: timings.readWaitMs,
    backoff: exponentialBackoff(Math.random, timings),
    clock,
    log,
    onRead: afterRead,
    load: async (lastResponseHash) => {
      try {
        return await reader.read(clock.now(), lastResponseHash);
      } catch (error) {
        told({ outcome: "failed" });
        throw error;
      }
    },
  });

  return {
    source,
    savedCopyPath: file,
    status: () => ({ source: source.kind, ...cache.status() }),
    async getEvents() {
      const copy = await cache.get();
      const response: EventsResponse = { events: copy.events, stale: copy.stale, subscribeUrl: source.subscribeUrl };
      // Only a stale copy says when it was read: a fresh answer is the calendar now, the same bytes on every instance.
      if (copy.stale) response.updatedAt = new Date(copy.fetchedAt).toISOString();
      return { response, json: copy.json, eventsJsonHash: copy.eventsJsonHash };
    },
    async start() {
      if (file && calendarIdentityHash) {
        let timer: NodeJS.Timeout | undefined;
        const from = fileToRestore(file, env.EVENTS_SAVED_COPY_PATH, log);
        const restored = reader.restore(from, calendarIdentityHash, clock.now(), MAX_STALE_MS).then((copy) => {
          // A first read that came back sooner wins: the saved copy is then not served, nor told of.
          if (!copy || !cache.restore(copy)) return;
          told({ outcome: "restored", events: copy.events.length });
          changedTo(copy.events);
        });
        // At most this long: past it the server listens and the copy follows.
        const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, timings.restoreWaitMs)));
        const failed = (error: unknown) =>
          log.warn(`[events] restoring the saved copy failed (${error instanceof Error ? error.message : "unknown error"})`);
        await Promise.race([restored.catch(failed), waited]);
        clearTimeout(timer);
      }
      cache.prime();
    },
    onChange: (listener) => subscribe(changeListeners, listener),
    onRead: (listener) => subscribe(readListeners, listener),
    listenerCount: () => changeListeners.length + readListeners.length,
  };
}

/** The bundled sample feed's text when it is the service's source (served at SAMPLE_FEED_PATH). */
export function sampleFeedOf(service: Pick<EventsService, "source">): string | undefined {
  return service.source.kind === "sample" ? sampleCalendar : undefined;
}

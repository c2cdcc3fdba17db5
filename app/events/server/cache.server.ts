// The events cache: one key, lru-cache's fetch() doing the coalescing and stale-while-revalidate.
//
// - Fresh for `ttlMs`: answered from memory.
// - Cold: concurrent callers share one load.
// - Expired: the previous copy is answered at once while one background load runs.
// - Load failed: the last good copy is kept and answered with stale: true, until it is
//   `maxStaleMs` old (24 h); a failed load is retried after min(ttl, 30 s).
// - Nothing (young enough) to answer: EventsUnavailableError, at once if the load failed, or after
//   `maxWaitMs` if it is still running (it goes on, and a later caller gets its result).
// - Failures are logged once per incident (the first failed load, at warn; the rest at debug)
//   and the recovery once (info); status() tells /readyz how the source is doing.
import { LRUCache } from "lru-cache";
import type { CalendarEvent } from "~/events/model";
import { getLogger } from "~/logger.server";

export type Clock = { now(): number };

/** Nothing to serve: the source failed and there is no copy younger than 24 hours. */
export class EventsUnavailableError extends Error {
  override name = "EventsUnavailableError";
}

export type Snapshot = {
  events: CalendarEvent[];
  /** Clock time (ms since the epoch) of the load that produced `events`. */
  fetchedAt: number;
  /** True when the last load failed and these are the last good events. */
  stale: boolean;
};

/** Where the events feature writes its lines (the process logger unless a test injects one). */
export type EventsLog = { warn(message: string): void; info(message: string): void; debug(message: string): void };

export const processEventsLog: EventsLog = {
  warn: (message) => getLogger().warn(message),
  info: (message) => getLogger().info(message),
  debug: (message) => getLogger().debug(message),
};

export type EventsCacheOptions = {
  load: (signal: AbortSignal) => Promise<CalendarEvent[]>;
  ttlMs: number;
  maxStaleMs?: number;
  /** How long a caller with nothing to be answered waits for a load before EventsUnavailableError. */
  maxWaitMs?: number;
  /** Wall-clock milliseconds; tests inject a fake one. */
  clock?: Clock;
  log?: EventsLog;
};

/**
 * cold: never loaded yet; fresh: the last load succeeded; stale: the last load failed and the
 * last good copy (under 24 h old) is served; failing: the last load failed and there is nothing to serve.
 */
export type CacheState = "cold" | "fresh" | "stale" | "failing";

export type CacheStatus = {
  state: CacheState;
  /** Clock times (ms since the epoch) of the last successful and the last failed load. */
  lastSuccessAt?: number;
  lastFailureAt?: number;
  /** Failed loads since the last success. */
  consecutiveFailures: number;
};

export type EventsCache = { get(): Promise<Snapshot>; status(): CacheStatus };

const KEY = "events";
export const MAX_STALE_MS = 24 * 60 * 60 * 1000;
/**
 * A visitor never waits longer than this for the calendar, however slow it is and however many
 * retries a load makes: less than one upstream attempt (5 s), leaving the page 2 s to render
 * on a busy machine and still answer within 6 s.
 */
export const MAX_WAIT_MS = 4_000;
const MAX_RETRY_INTERVAL_MS = 30_000;

export function createEventsCache({
  load,
  ttlMs,
  maxStaleMs = MAX_STALE_MS,
  maxWaitMs = MAX_WAIT_MS,
  clock = { now: () => Date.now() },
  log = processEventsLog,
}: EventsCacheOptions): EventsCache {
  let lastSuccessAt: number | undefined;
  let lastFailureAt: number | undefined;
  let failures = 0;

  const cache = new LRUCache<string, Snapshot>({
    max: 1,
    ttl: ttlMs,
    // Serve the expired copy while one background fetch runs.
    allowStale: true,
    // Our clock, read on every check (no 1 ms debounce), so tests can move time.
    perf: clock,
    ttlResolution: 0,
    fetchMethod: async (_key, previous, { signal, options }) => {
      try {
        const events = await load(signal);
        if (failures > 0) log.info(`[events] the calendar answers again, after ${failures} failed ${failures === 1 ? "read" : "reads"}`);
        failures = 0;
        lastSuccessAt = clock.now();
        return { events, fetchedAt: lastSuccessAt, stale: false };
      } catch (error) {
        const reason = error instanceof Error ? error.message : "unknown error";
        failures += 1;
        lastFailureAt = clock.now();
        // Once per incident: an outage retried every 30 s must not write a line every 30 s.
        const report = failures === 1 ? log.warn : log.debug;
        if (previous && clock.now() - previous.fetchedAt <= maxStaleMs) {
          report(`[events] refresh failed (${reason}); serving the copy from ${new Date(previous.fetchedAt).toISOString()}`);
          // Keep the last good copy, marked stale, and try again soon.
          options.ttl = Math.min(ttlMs, MAX_RETRY_INTERVAL_MS);
          return { ...previous, stale: true };
        }
        report(`[events] loading events failed (${reason}) and there is no recent copy to serve`);
        throw new EventsUnavailableError("The events calendar is unavailable right now.", { cause: error });
      }
    },
  });

  return {
    async get() {
      // A copy past the 24 h limit is never answered, not even while a refresh runs.
      const current = cache.peek(KEY, { allowStale: true });
      const tooOld = current !== undefined && clock.now() - current.fetchedAt > maxStaleMs;
      const pending = cache.fetch(KEY, tooOld ? { allowStale: false, forceRefresh: true } : {});
      // With a copy to answer, fetch() answers at once; only a caller with nothing waits for the load.
      const snapshot = await (current === undefined || tooOld ? withDeadline(pending, maxWaitMs) : pending);
      if (!snapshot) throw new EventsUnavailableError("The events calendar is unavailable right now.");
      return snapshot;
    },
    status() {
      let state: CacheState = "fresh";
      if (lastSuccessAt === undefined && lastFailureAt === undefined) state = "cold";
      else if (failures > 0) {
        const copy = cache.peek(KEY, { allowStale: true });
        state = copy !== undefined && clock.now() - copy.fetchedAt <= maxStaleMs ? "stale" : "failing";
      }
      return { state, lastSuccessAt, lastFailureAt, consecutiveFailures: failures };
    },
  };
}

/** The promise's outcome, or EventsUnavailableError after `ms`; the promise itself runs on (its rejection is handled). */
async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EventsUnavailableError(`The events calendar did not answer within ${ms} ms.`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

// The events cache: one copy of the calendar in memory, at most one read at a time, and a pace for
// reads that no visitor can change.
//
// - Fresh for `ttlMs`: answered from memory.
// - Cold: concurrent callers share one read.
// - Expired: the previous copy is answered at once while one background read runs.
// - A read failed: the last good copy is kept and answered with stale: true, until it is
//   `maxStaleMs` old (24 h). Either way no read starts before the backoff interval has passed
//   (5 s doubling to 5 minutes by default, jittered, longer when the upstream asked for it), whatever visitors
//   do: with nothing to answer, callers get EventsUnavailableError at once meanwhile.
// - Nothing (young enough) to answer and a read running: callers wait for it at most `maxWaitMs`.
// - A copy restored at start-up (the saved copy on disk) is answered as stale until the first read.
// - A read whose calendar is unchanged (the same hash of what the source sent, `responseHash`) keeps the copy as it
//   is: nothing is converted, hashed or rendered again.
// - Failures are logged once per incident (the first failed read, at warn; the rest at debug)
//   and the recovery once (info); status() tells /readyz how the source is doing.
import type { CalendarEvent } from "~/events/model";
import { getLogger } from "~/logger.server";
import { PRODUCTION_TIMINGS, type Timings } from "~/timings.server";
import { UpstreamError } from "./fetch-upstream.server";

export type Clock = { now(): number };

/** Nothing to serve: the source failed and there is no copy younger than 24 hours. */
export class EventsUnavailableError extends Error {
  override name = "EventsUnavailableError";
}

/** The calendar as the server holds it in memory, and answers it until the next read. */
export type EventsCopy = {
  events: CalendarEvent[];
  /** `events` as JSON, made once per read in the calendar worker's process: the API's answer and the saved copy are built from it. */
  json: Uint8Array;
  /** A hash of `json`: two reads of the same calendar, anywhere, have the same one. */
  eventsJsonHash: string;
  /** Clock time (ms since the epoch) of the read that produced `events`. */
  fetchedAt: number;
  /** True when these are the last good events: the last read failed, or none has run since a restart. */
  stale: boolean;
};

/**
 * What one read of the source brings. `responseHash` identifies what the source sent (and the window it was
 * read for); when it equals the `lastResponseHash` given to the read, the calendar is unchanged and nothing was converted.
 */
export type ReadResult =
  | { changed: false; responseHash: string }
  | { changed: true; responseHash: string; events: CalendarEvent[]; json: Uint8Array; eventsJsonHash: string };

/** A copy restored from disk at start-up, answered as stale until the first read. */
export type RestoredCopy = Pick<EventsCopy, "events" | "json" | "eventsJsonHash" | "fetchedAt">;

/** Where the events feature writes its lines (the process logger unless a test injects one). */
export type EventsLog = { warn(message: string): void; info(message: string): void; debug(message: string): void };

export const processEventsLog: EventsLog = {
  warn: (message) => getLogger().warn(message),
  info: (message) => getLogger().info(message),
  debug: (message) => getLogger().debug(message),
};

export type EventsCacheOptions = {
  /** One read of the source; `lastResponseHash` is that of the read the copy came from. */
  load: (lastResponseHash: string | undefined) => Promise<ReadResult>;
  ttlMs: number;
  maxStaleMs?: number;
  /**
   * How long a caller with nothing to be answered waits for a read before EventsUnavailableError
   * (the timings' readWaitMs): a visitor never waits longer, however slow the calendar is.
   */
  maxWaitMs?: number;
  /** The wait after the n-th failed read in a row (1-based), before the upstream's own asks. */
  backoff?: (failures: number) => number;
  /**
   * Called after every good read, outside it: what it does (saving the copy, drawing share cards)
   * can never turn a good read into a failure. `changed` is false when the calendar was unchanged.
   */
  onRead?: (copy: EventsCopy, changed: boolean) => void;
  /** Wall-clock milliseconds; tests inject a fake one. */
  clock?: Clock;
  log?: EventsLog;
};

/**
 * cold: never read yet; restored: serving a copy from before a restart, the first read not done;
 * fresh: the last read succeeded; stale: the last read failed and the last good copy (under 24 h
 * old) is served; failing: the last read failed and there is nothing to serve.
 */
export type CacheState = "cold" | "restored" | "fresh" | "stale" | "failing";

export type CacheStatus = {
  state: CacheState;
  /** Clock times (ms since the epoch) of the last successful and the last failed read. */
  lastSuccessAt?: number;
  lastFailureAt?: number;
  /** Failed reads since the last success. */
  consecutiveFailures: number;
  /** The earliest time the next read may start (after a failure: the end of the backoff). */
  nextAttemptAt?: number;
};

export type EventsCache = {
  get(): Promise<EventsCopy>;
  status(): CacheStatus;
  /** Answers `copy` (as stale) until the first read, unless a read has already brought one; whether it did. */
  restore(copy: RestoredCopy): boolean;
  /** Starts a read now unless one runs or the pace forbids it (at start-up, so no visitor waits for the first). */
  prime(): void;
};

export const MAX_STALE_MS = 24 * 60 * 60 * 1000;

/**
 * 5 s, 10 s, 20 s… up to 5 minutes (the timings' firstBackoffMs and maxBackoffMs), each stretched
 * by up to a fifth so instances drift apart (never shortened).
 */
export function exponentialBackoff(
  random: () => number = Math.random,
  { firstBackoffMs, maxBackoffMs }: Pick<Timings, "firstBackoffMs" | "maxBackoffMs"> = PRODUCTION_TIMINGS,
): (failures: number) => number {
  return (failures) => Math.min(maxBackoffMs, firstBackoffMs * 2 ** Math.min(failures - 1, 16)) * (1 + random() / 5);
}

export function createEventsCache({
  load,
  ttlMs,
  maxStaleMs = MAX_STALE_MS,
  maxWaitMs = PRODUCTION_TIMINGS.readWaitMs,
  backoff = exponentialBackoff(),
  onRead,
  clock = { now: () => Date.now() },
  log = processEventsLog,
}: EventsCacheOptions): EventsCache {
  let copy: EventsCopy | undefined;
  /** The hash of what the source sent in the read `copy` came from (none for a restored copy: the first read converts). */
  let responseHash: string | undefined;
  let reading: Promise<EventsCopy> | undefined;
  let nextAttemptAt = 0;
  let lastSuccessAt: number | undefined;
  let lastFailureAt: number | undefined;
  let failures = 0;

  const usable = (now: number) => (copy !== undefined && now - copy.fetchedAt <= maxStaleMs ? copy : undefined);

  async function read(): Promise<EventsCopy> {
    let changed: boolean;
    let kept: EventsCopy;
    try {
      const result = await load(copy ? responseHash : undefined);
      const now = clock.now();
      if (failures > 0) log.info(`[events] the calendar answers again, after ${failures} failed ${failures === 1 ? "read" : "reads"}`);
      failures = 0;
      lastSuccessAt = now;
      nextAttemptAt = now + ttlMs;
      changed = result.changed && result.eventsJsonHash !== copy?.eventsJsonHash;
      // The source sent what it sent last time: the read stopped there (the operator's debug view, and the tests').
      if (!result.changed) log.debug("[events] the calendar is unchanged since the last read: nothing converted");
      if (result.changed) {
        // The same calendar keeps the same copy: whatever was derived from it stays valid.
        copy = changed
          ? { events: result.events, json: result.json, eventsJsonHash: result.eventsJsonHash, fetchedAt: now, stale: false }
          : copy;
        responseHash = result.responseHash;
      }
      if (!copy) throw new Error("the source said the calendar was unchanged, but there is no copy");
      kept = copy = { ...copy, fetchedAt: now, stale: false };
    } catch (error) {
      const now = clock.now();
      const reason = error instanceof Error ? error.message : "unknown error";
      failures += 1;
      lastFailureAt = now;
      const askedMs = error instanceof UpstreamError ? (error.retryAfterMs ?? 0) : 0;
      const waitMs = Math.round(Math.max(backoff(failures), askedMs));
      nextAttemptAt = now + waitMs;
      // Once per incident: an outage retried every few minutes must not write a line each time.
      const report = failures === 1 ? log.warn : log.debug;
      const next = `next read in ${Math.ceil(waitMs / 1000)} s`;
      const last = usable(now);
      if (last) {
        report(`[events] refresh failed (${reason}); serving the copy from ${new Date(last.fetchedAt).toISOString()}; ${next}`);
        if (!last.stale) copy = { ...last, stale: true };
        return copy as EventsCopy;
      }
      report(`[events] loading events failed (${reason}) and there is no recent copy to serve; ${next}`);
      throw new EventsUnavailableError("The events calendar is unavailable right now.", { cause: error });
    } finally {
      reading = undefined;
    }
    // After the read, apart from it: a side effect that throws is its own failure, not the read's.
    try {
      onRead?.(kept, changed);
    } catch (error) {
      log.warn(`[events] after a good read: ${error instanceof Error ? error.message : "unknown error"}`);
    }
    return kept;
  }

  /** The running read, or a new one; never two at once. */
  function startRead(): Promise<EventsCopy> {
    if (!reading) {
      reading = read();
      // Callers may have stopped waiting; the outcome is kept in the state above.
      reading.catch(() => undefined);
    }
    return reading;
  }

  return {
    async get() {
      const now = clock.now();
      const last = usable(now);
      if (last) {
        if (now >= nextAttemptAt) void startRead();
        return last;
      }
      // A copy past the 24 h limit is never answered, not even while a read runs.
      if (!reading && now < nextAttemptAt) throw new EventsUnavailableError("The events calendar is unavailable right now.");
      return withDeadline(startRead(), maxWaitMs);
    },
    restore(restored) {
      if (copy || lastSuccessAt !== undefined) return false;
      copy = { ...restored, stale: true };
      return true;
    },
    prime() {
      if (!reading && clock.now() >= nextAttemptAt) void startRead();
    },
    status() {
      let state: CacheState = "fresh";
      if (failures > 0) state = usable(clock.now()) ? "stale" : "failing";
      else if (lastSuccessAt === undefined) state = copy ? "restored" : "cold";
      return {
        state,
        lastSuccessAt: lastSuccessAt ?? (copy ? copy.fetchedAt : undefined),
        lastFailureAt,
        consecutiveFailures: failures,
        nextAttemptAt: nextAttemptAt > 0 ? nextAttemptAt : undefined,
      };
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

// The events cache: one copy of the calendar, at most one read at a time, and a pace for reads
// that no visitor can change.
//
// - Fresh for `ttlMs`: answered from memory.
// - Cold: concurrent callers share one read.
// - Expired: the previous copy is answered at once while one background read runs.
// - A read failed: the last good copy is kept and answered with stale: true, until it is
//   `maxStaleMs` old (24 h). Either way no read starts before the backoff interval has passed
//   (5 s doubling to 5 minutes, jittered, longer when the upstream asked for it), whatever visitors
//   do: with nothing to answer, callers get EventsUnavailableError at once meanwhile.
// - Nothing (young enough) to answer and a read running: callers wait for it at most `maxWaitMs`.
// - A copy restored at start-up (the snapshot file) is answered as stale until the first read.
// - Failures are logged once per incident (the first failed read, at warn; the rest at debug)
//   and the recovery once (info); status() tells /readyz how the source is doing.
import { createHash } from "node:crypto";
import type { CalendarEvent } from "~/events/model";
import { getLogger } from "~/logger.server";
import { UpstreamError } from "./fetch-upstream.server";

export type Clock = { now(): number };

/** Nothing to serve: the source failed and there is no copy younger than 24 hours. */
export class EventsUnavailableError extends Error {
  override name = "EventsUnavailableError";
}

export type Snapshot = {
  events: CalendarEvent[];
  /** A digest of `events`: two reads of the same calendar, anywhere, have the same one. */
  contentHash: string;
  /** Clock time (ms since the epoch) of the read that produced `events`. */
  fetchedAt: number;
  /** True when these are the last good events: the last read failed, or none has run since a restart. */
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
  load: () => Promise<CalendarEvent[]>;
  ttlMs: number;
  maxStaleMs?: number;
  /** How long a caller with nothing to be answered waits for a read before EventsUnavailableError. */
  maxWaitMs?: number;
  /** The wait after the n-th failed read in a row (1-based), before the upstream's own asks. */
  backoff?: (failures: number) => number;
  /** A copy to answer (as stale) until the first read: the last good read of an earlier process. */
  restored?: Pick<Snapshot, "events" | "fetchedAt">;
  /** Called after every good read (the snapshot file keeps it). */
  onRead?: (snapshot: Snapshot) => void;
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

export type EventsCache = { get(): Promise<Snapshot>; status(): CacheStatus };

export const MAX_STALE_MS = 24 * 60 * 60 * 1000;
/**
 * A visitor never waits longer than this for the calendar, however slow it is and however many
 * retries a read makes: less than one upstream attempt (5 s), leaving the page 2 s to render
 * on a busy machine and still answer within 6 s.
 */
export const MAX_WAIT_MS = 4_000;
export const FIRST_BACKOFF_MS = 5_000;
export const MAX_BACKOFF_MS = 5 * 60 * 1000;

/** 5 s, 10 s, 20 s… up to 5 minutes, each stretched by up to a fifth so instances drift apart (never shortened). */
export function exponentialBackoff(random: () => number = Math.random): (failures: number) => number {
  return (failures) => Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(failures - 1, 16)) * (1 + random() / 5);
}

/** The digest of a list of events: the same calendar gives the same one, wherever and whenever it is read. */
export function contentHashOf(events: CalendarEvent[]): string {
  return createHash("sha256").update(JSON.stringify(events)).digest("base64url").slice(0, 22);
}

export function createEventsCache({
  load,
  ttlMs,
  maxStaleMs = MAX_STALE_MS,
  maxWaitMs = MAX_WAIT_MS,
  backoff = exponentialBackoff(),
  restored,
  onRead,
  clock = { now: () => Date.now() },
  log = processEventsLog,
}: EventsCacheOptions): EventsCache {
  let copy: Snapshot | undefined = restored && { ...restored, contentHash: contentHashOf(restored.events), stale: true };
  let reading: Promise<Snapshot> | undefined;
  let nextAttemptAt = 0;
  let lastSuccessAt: number | undefined;
  let lastFailureAt: number | undefined;
  let failures = 0;

  const usable = (now: number) => (copy !== undefined && now - copy.fetchedAt <= maxStaleMs ? copy : undefined);

  async function read(): Promise<Snapshot> {
    try {
      const events = await load();
      const now = clock.now();
      const contentHash = contentHashOf(events);
      if (failures > 0) log.info(`[events] the calendar answers again, after ${failures} failed ${failures === 1 ? "read" : "reads"}`);
      failures = 0;
      lastSuccessAt = now;
      nextAttemptAt = now + ttlMs;
      // The same calendar keeps the same array: whatever was derived from it stays valid.
      copy = { events: copy?.contentHash === contentHash ? copy.events : events, contentHash, fetchedAt: now, stale: false };
      onRead?.(copy);
      return copy;
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
        return copy as Snapshot;
      }
      report(`[events] loading events failed (${reason}) and there is no recent copy to serve; ${next}`);
      throw new EventsUnavailableError("The events calendar is unavailable right now.", { cause: error });
    } finally {
      reading = undefined;
    }
  }

  /** The running read, or a new one; never two at once. */
  function startRead(): Promise<Snapshot> {
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

// The server's timers and timeouts, in one place: their production values, and the shape of the
// overrides the TIMINGS variable may give (app/env.server.ts parses it). Production leaves TIMINGS
// unset; the tests set small values so they wait on conditions, not on production timers.
import { z } from "zod";

export type Timings = {
  /** One attempt at the upstream (Google, a feed), headers and body. */
  upstreamTimeoutMs: number;
  /** The wait before the upstream retry inside one read ("equal jitter" on this base, doubling per retry). */
  upstreamRetryMs: number;
  /** A retry inside one read waits at most this long; an upstream asking for more is left to the cache's backoff. */
  inReadWaitMaxMs: number;
  /** After a 429 without Retry-After (or Google's 403 rate limit), no read for at least this long. */
  rateLimitHoldOffMs: number;
  /** After Google's 403 quotaExceeded: an exhausted quota does not come back in seconds, asking soon only burns what is left. */
  quotaHoldOffMs: number;
  /** After a failed read, the next one waits this long, doubling with each failure in a row… */
  firstBackoffMs: number;
  /** …up to this. */
  maxBackoffMs: number;
  /** How long a copy of the calendar is fresh; EVENTS_CACHE_TTL_SECONDS unless TIMINGS sets it (below a second for tests). */
  calendarTtlMs: number;
  /** A caller with nothing to be answered waits this long at most for a read (less than one upstream attempt). */
  readWaitMs: number;
  /**
   * A read's deadline, per page: it is abandoned (and its worker killed) when this long passes without a page (or a
   * feed) arriving, or, after the last, without its answer. Only a stuck upstream or parser meets it; a 25,000-event
   * calendar at 4 s a page (50 pages) finishes however long its pages take together.
   */
  readPageBudgetMs: number;
  /** The calendar worker ends after this long without a request. */
  calendarWorkerIdleMs: number;
  /** The share card worker ends this long after its last card. */
  shareCardWorkerIdleMs: number;
  /** A share card drawing that takes longer is abandoned, and its worker ended. */
  drawTimeoutMs: number;
  /** Start-up waits at most this long for the saved copy; past it the server listens and the copy follows. */
  restoreWaitMs: number;
  /** Start-up waits at most this long for the share card worker's first card. */
  warmWaitMs: number;
  /** After SIGTERM, requests still running after this long have their connections closed. */
  shutdownGraceMs: number;
};

export const PRODUCTION_TIMINGS: Readonly<Timings> = Object.freeze({
  upstreamTimeoutMs: 5_000,
  // One quick retry for a blip; a longer outage is the events cache's to pace.
  upstreamRetryMs: 300,
  inReadWaitMaxMs: 2_000,
  rateLimitHoldOffMs: 30_000,
  quotaHoldOffMs: 5 * 60 * 1000,
  // 5 s, 10 s, 20 s… up to 5 minutes.
  firstBackoffMs: 5_000,
  maxBackoffMs: 5 * 60 * 1000,
  calendarTtlMs: 300 * 1000,
  // Under one upstream attempt, leaving the page 2 s to render on a busy machine and answer within 6 s.
  readWaitMs: 4_000,
  // Far above an honest page (each attempt is bounded by the upstream timeout) and the work after the last page.
  readPageBudgetMs: 60_000,
  // Longer than the pause between reads of a calendar refreshed every few seconds, far shorter than the default 5 minutes.
  calendarWorkerIdleMs: 10_000,
  // Longer than the gaps inside a burst of cards (crawlers of a shared link come within seconds).
  shareCardWorkerIdleMs: 15_000,
  drawTimeoutMs: 20_000,
  restoreWaitMs: 5_000,
  warmWaitMs: 5_000,
  // Orchestrators usually wait 10 s after SIGTERM before SIGKILL: leave room to exit.
  shutdownGraceMs: 8_000,
});

/** The longest any timing may be set to: a day. */
const MAX_MS = 24 * 60 * 60 * 1000;

/** TIMINGS: a JSON object of millisecond overrides, by the names above; any other key is refused. */
export const timingOverrides = z.strictObject(
  Object.fromEntries(
    Object.keys(PRODUCTION_TIMINGS).map((key) => [
      key,
      z.number("must be a number of milliseconds").int("must be whole milliseconds").min(1).max(MAX_MS).optional(),
    ]),
  ) as Record<keyof Timings, z.ZodOptional<z.ZodNumber>>,
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `has no timing ${issue.keys.map((key) => JSON.stringify(key)).join(", ")} (known: ${Object.keys(PRODUCTION_TIMINGS).join(", ")})`
        : issue.code === "invalid_type"
          ? "must be a JSON object of milliseconds by name"
          : undefined,
  },
);

export type TimingOverrides = Partial<Timings>;

/** The timings a process runs with: production's, the calendar's TTL from its variable, then the overrides. */
export function resolveTimings(overrides: TimingOverrides | undefined, ttlSeconds: number): Timings {
  return { ...PRODUCTION_TIMINGS, calendarTtlMs: ttlSeconds * 1000, ...overrides };
}

// The server's timers as the tests set them (TIMINGS, app/timings.server.ts): small, so a test that
// needs one to pass (an upstream that never answers, a backoff, a copy going stale, a worker's idle
// end, the shutdown's grace) waits for the condition it looks for, not for a production default.
// Only servers that need them get them (startServer's `timings`): a short TTL makes reads a test may
// be counting. The upstream's timeout stays production's (5 s) here: a short one failed reads of
// a 600-event calendar on a busy machine; fault.test.ts, whose upstreams never answer, sets its own.
import type { Timings } from "~/timings.server";

export const FAST_TIMINGS = {
  upstreamRetryMs: 20,
  // An upstream's "slow down" (429, Google's 403s) holds reads off for 200 ms (30 s; 5 minutes for a spent quota).
  rateLimitHoldOffMs: 200,
  quotaHoldOffMs: 200,
  // Failed reads are retried after 200 ms, doubling to 1 s (5 s to 5 minutes).
  firstBackoffMs: 200,
  maxBackoffMs: 1_000,
  // A copy is fresh for 200 ms (EVENTS_CACHE_TTL_SECONDS cannot go below 1 s).
  calendarTtlMs: 200,
  // The share card worker ends 1 s after its last card (15 s).
  shareCardWorkerIdleMs: 1_000,
  // Connections still busy 1 s after SIGTERM are closed (8 s).
  shutdownGraceMs: 1_000,
} as const satisfies Partial<Timings>;

/** TIMINGS's value for these timings. */
export const timingsVariable = (timings: Partial<Timings>) => JSON.stringify(timings);

/**
 * How long a test waits for a condition it expects (a read, the end of a backoff, a worker's idle
 * end): a second or two on a quiet machine; the limit is only how long a broken server takes to
 * fail, never a wait, so it is generous for a busy machine.
 */
export const UNTIL_MS = 15_000;

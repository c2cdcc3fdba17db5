// The clock the tests set (issue 49): a server a test starts reads "now" as a moment the test names,
// not the wall clock. The built production server runs unchanged: Debian's libfaketime, preloaded
// into its process, moves every clock reading of the process (Date, the calendar worker's, the log's
// timestamps, file times) by a fixed offset, and the processes it forks inherit it. Monotonic clocks
// are left alone, so timers run as usual. Nothing in the server reads a test clock or a variable of
// its own for the time: docs/decisions/test-clock.md says why this way.
//
// A clock starts at its moment when it is made and runs on in real time: the test, its fakes and its
// servers all read `clock.now()` as the same instant.
import { faketimeEnv, instantOf } from "../../scripts/faketime.js";

/** A moment the tests run at, and the environment that runs a process at it. */
export type TestClock = {
  /** The moment named, in ms since the epoch. */
  readonly at: number;
  /** Now on this clock: the moment plus the real time passed since the clock was made. */
  now(): number;
  /** The variables that run a process (a built server, its workers) on this clock. */
  readonly env: Readonly<Record<string, string>>;
};

/** A clock at `moment` (an ISO 8601 instant with its offset or Z, or ms), starting now. */
export function clockAt(moment: string | number): TestClock {
  const at = typeof moment === "number" ? moment : instantOf(moment);
  return clockWithOffset(at - Date.now(), at);
}

/** A clock named for `at`, `offsetMs` ahead of this process's clock (behind when negative). */
function clockWithOffset(offsetMs: number, at: number): TestClock {
  return {
    at,
    now: () => Date.now() + offsetMs,
    // Looked up when a server starts: tests that start none run without libfaketime.
    get env() {
      return faketimeEnv(offsetMs);
    },
  };
}

/**
 * The moment every test server runs at unless its test names another: the middle of a month, with
 * events on both sides of now in the month. TEST_MOMENT sets another for a whole run (`TEST_MOMENT=2027-02-28T23:55:00-05:00
 * npm test`): a verdict must not depend on it.
 */
export const DEFAULT_SUITE_MOMENT = "2026-10-14T15:30:00Z";

/** The variable that carries the run's clock (its moment and offset) to Vitest's and Playwright's worker processes, set once. */
const SUITE_CLOCK = "TEST_SUITE_CLOCK";

let suite: TestClock | undefined;

/**
 * The run's clock: TEST_MOMENT or DEFAULT_SUITE_MOMENT, set when the run starts (the first process to
 * ask fixes its offset for every worker after it), so all of a run's servers and tests agree on now.
 */
export function suiteClock(): TestClock {
  if (suite) return suite;
  const fixed = process.env[SUITE_CLOCK]?.split(",").map(Number);
  if (fixed?.length === 2 && fixed.every(Number.isFinite)) {
    suite = clockWithOffset(fixed[1]!, fixed[0]!);
  } else {
    const at = clockAt(process.env.TEST_MOMENT || DEFAULT_SUITE_MOMENT).at;
    const offsetMs = at - Date.now();
    suite = clockWithOffset(offsetMs, at);
    process.env[SUITE_CLOCK] = `${at},${offsetMs}`;
  }
  return suite;
}

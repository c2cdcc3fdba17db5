// Fault tests: the built server against fake upstreams that fail in each way we know of. Whatever the
// calendar does, /events and /api/calendar/events answer within 6 seconds: with the last good copy
// (stale) when there is one, with the error state and a 502 JSON sentence when there is none.
// One server per fault, its timers small (FAST_TIMINGS: a copy fresh for 200 ms, failed reads
// retried from 200 ms; and an upstream given up after 1 s an attempt): it starts with the fault,
// then the calendar recovers, and fails again.
import { afterAll, describe, type ExpectStatic, it } from "vitest";
import type { EventsResponse } from "~/events/model";
import { startFakeGoogleCalendar, type GoogleScenario } from "../fakes/google-calendar";
import { startFakeIcsFeed, type IcsFault } from "../fakes/ics-feed";
import { suiteClock } from "../support/clock";
import { timed, type TimedAnswer } from "../support/http";
import { NO_SOURCE } from "../support/environments";
import { startServer, type RunningServer } from "../support/start-server";
import { FAST_TIMINGS, UNTIL_MS } from "../support/timings";

const BOUND_MS = 6_000;
const UNAVAILABLE = { message: "The events calendar is unavailable right now. Please try again later." };
const PAGE_ERROR = "Failed to load events from calendar.";
const PAGE_LOADING = "Loading events...";

/**
 * With nothing cached, the page shows its error state, or its loading state while the first read
 * is still going after a second (its scripts then fetch the API); neither is kept by any cache.
 */
function expectErrorOrLoading(expect: ExpectStatic, page: TimedAnswer) {
  expect(page.text.includes(PAGE_ERROR) || page.text.includes(PAGE_LOADING), "error or loading state").toBe(true);
  expect(page.headers.get("cache-control")).toBe("no-store");
}
const PAGE_STALE = "The calendar could not be reached just now. Showing events as last updated";

/** One fake upstream, serving good data until `fail()` switches it into its fault. */
type Upstream = {
  env: Record<string, string>;
  /** An upcoming event's title the page shows while the data is good. */
  title: string;
  /** Text that must never reach a response or the log (the API key, the upstream's address). */
  secrets: string[];
  fail: () => void;
  /** Serves good data again. */
  recover: () => void;
  requestCount: () => number;
  /** How long the server held each never-answered request before giving up (the upstream timeout). */
  hangs: number[];
  close: () => Promise<void>;
};

type Fault = { name: string; start: () => Promise<Upstream> };

const googleFault = (name: string, scenario: GoogleScenario): Fault => ({
  name: `Google Calendar: ${name}`,
  async start() {
    const fake = await startFakeGoogleCalendar();
    return {
      env: fake.env,
      title: "Speaker Series: Pricing",
      secrets: [fake.apiKey, fake.url],
      fail: () => fake.setScenario(scenario),
      recover: () => fake.setScenario("normal"),
      requestCount: fake.requestCount,
      hangs: fake.hangs,
      close: fake.close,
    };
  },
});

const icsFault = (name: string, fault: IcsFault | number): Fault => ({
  name: `iCalendar feed: ${name}`,
  async start() {
    const feed = await startFakeIcsFeed(["unbounded-monthly.ics"]);
    return {
      env: { CALENDAR_ICS_URL: feed.urlOf("unbounded-monthly.ics") },
      title: "Members Breakfast",
      secrets: [],
      fail: () => (typeof fault === "number" ? feed.failWith(fault) : feed.setFault(fault)),
      recover: () => {
        feed.failWith(undefined);
        feed.setFault(undefined);
      },
      requestCount: feed.requestCount,
      hangs: feed.hangs,
      close: feed.close,
    };
  },
});

const FAULTS: Fault[] = [
  googleFault("timeout (never answers)", "hang"),
  googleFault("connection reset mid-body", "resetMidBody"),
  googleFault("HTTP 500", "error500"),
  googleFault("403 rateLimitExceeded", "rateLimit403"),
  googleFault("403 quotaExceeded", "quota403"),
  googleFault("malformed JSON", "malformed"),
  googleFault("body over the 5 MB limit", "oversized"),
  icsFault("timeout (never answers)", "hang"),
  icsFault("connection reset mid-body", "resetMidBody"),
  icsFault("HTTP 500", 500),
  icsFault("not iCalendar", "malformed"),
  icsFault("body over the 5 MB limit", "oversized"),
];

// The slowest timed answer per case, printed at the end for the record.
const slowest = new Map<string, number>();
afterAll(() => {
  for (const [name, ms] of slowest) console.log(`[measure] ${name}: slowest answer ${ms.toFixed(0)} ms`);
});

type Both = { api: TimedAnswer; page: TimedAnswer };

/** The API and the page, asked for. */
async function fetchBoth(server: RunningServer, untimed = false): Promise<Both> {
  // Set-up reads may be slow on a crowded machine; timed ones fail on their bound anyway.
  const giveUpMs = untimed ? 60_000 : 15_000;
  const api = await timed(server.url, "/api/calendar/events", {}, giveUpMs);
  const page = await timed(server.url, "/events", {}, giveUpMs);
  return { api, page };
}

/**
 * The API and the page, never leaking an upstream secret, each answered within the bound (unless
 * `untimed`: the first read of a fresh process is set-up, not part of the contract).
 */
function expectSound(expect: ExpectStatic, upstream: Upstream, { api, page }: Both, untimed = false): void {
  if (!untimed) {
    const name = expect.getState().currentTestName ?? "?";
    slowest.set(name, Math.max(slowest.get(name) ?? 0, api.ms, page.ms));
    expect(api.ms, `GET /api/calendar/events took ${api.ms.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
    expect(page.ms, `GET /events took ${page.ms.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
  }
  expect(page.status).toBe(200);
  for (const secret of upstream.secrets) {
    expect(api.text).not.toContain(secret);
    expect(page.text).not.toContain(secret);
  }
}

async function both(expect: ExpectStatic, server: RunningServer, upstream: Upstream): Promise<Both> {
  const answers = await fetchBoth(server);
  expectSound(expect, upstream, answers);
  return answers;
}

/**
 * Asks for both until `done` holds of them, within UNTIL_MS; then holds every answer asked for to
 * expectSound. (expect.poll retries an assertion that throws, so none is made inside it.)
 */
async function bothUntil(
  expect: ExpectStatic,
  server: RunningServer,
  upstream: Upstream,
  done: (answers: Both) => boolean,
  { untimed = false, message }: { untimed?: boolean; message: string },
): Promise<Both[]> {
  const all: Both[] = [];
  await expect
    .poll(
      async () => {
        all.push(await fetchBoth(server, untimed));
        return done(all.at(-1)!);
      },
      { timeout: UNTIL_MS, message },
    )
    .toBe(true);
  for (const answers of all) expectSound(expect, upstream, answers, untimed);
  return all;
}

// An upstream that never answers is given up after 1 s an attempt (5 s in production). A good read
// that takes longer on a busy machine fails too, and the test waits for the next.
const TIMINGS = { ...FAST_TIMINGS, upstreamTimeoutMs: 1_000 };
const TIMED_OUT = `did not answer within ${TIMINGS.upstreamTimeoutMs} ms`;

/**
 * A never-answered upstream request (the first after `since` of them) was dropped by the server's
 * upstream timeout, not held open.
 */
async function expectUpstreamTimeout(expect: ExpectStatic, server: RunningServer, upstream: Upstream, since = 0) {
  await expect.poll(() => upstream.hangs.length, { timeout: UNTIL_MS }).toBeGreaterThan(since);
  // Measured at the fake, which may see the request late on a busy machine: only the upper bound holds.
  expect(upstream.hangs[since]!).toBeLessThan(BOUND_MS);
  await expect.poll(() => server.output(), { timeout: UNTIL_MS }).toContain(TIMED_OUT);
}

// The stress project runs this file alone, two faults at a time (vitest.config.ts): each answer's
// 6 s bound is a visitor's, not a loaded machine's.
describe("every fault", () => {
  it.concurrent.for(FAULTS)(
    "$name: with nothing cached, 502 JSON and the error (or loading) state; after a good read, the last good copy, then marked stale; every answer within 6 s",
    // A server of its own (a start has 60 s), through an outage, a recovery and another outage: a few seconds on a quiet machine.
    { timeout: 120_000 },
    async (fault, { expect, onTestFinished }) => {
      const upstream = await fault.start();
      onTestFinished(() => upstream.close());
      // The server reads the calendar as it starts: the calendar fails before that.
      upstream.fail();
      const server = await startServer({ ...NO_SOURCE, ...upstream.env }, { timings: TIMINGS });
      onTestFinished(() => server.stop());

      // With nothing cached.
      // A fresh process loads its page code on the first request (seconds on a busy machine); the
      // home page does that without reading the calendar, so the timed requests below measure the fault.
      expect((await timed(server.url, "/", {}, UNTIL_MS)).status).toBe(200);
      // The first read started at start-up, before any visitor asked for events.
      await expect.poll(() => upstream.requestCount(), { timeout: UNTIL_MS }).toBeGreaterThan(0);

      const first = await both(expect, server, upstream);
      expect(first.api.status).toBe(502);
      expect(first.api.headers.get("content-type")).toMatch(/^application\/json/);
      expect(JSON.parse(first.api.text)).toEqual(UNAVAILABLE);
      expectErrorOrLoading(expect, first.page);

      // Asked again (the failed read may still be retrying): the same answers, as fast.
      const again = await both(expect, server, upstream);
      expect(again.api.status).toBe(502);
      expectErrorOrLoading(expect, again.page);

      if (fault.name.includes("timeout")) await expectUpstreamTimeout(expect, server, upstream);
      for (const secret of upstream.secrets) expect(server.output()).not.toContain(secret);

      // After a good read: the calendar recovers, and the next read the backoff allows is good.
      // The server's updatedAt is on its clock, the run's (tests/support/clock.ts).
      const beforeGoodRead = suiteClock().now();
      upstream.recover();
      const good = (
        await bothUntil(
          expect,
          server,
          upstream,
          ({ api, page }) => api.status === 200 && api.headers.get("x-events-stale") === null && page.text.includes(upstream.title),
          { untimed: true, message: "a good read answered" },
        )
      ).at(-1)!;
      const goodBody = JSON.parse(good.api.text) as EventsResponse;
      expect(goodBody.events.length).toBeGreaterThan(0);

      upstream.fail();
      const failedAt = suiteClock().now();
      const requestsBefore = upstream.requestCount();
      const hangsBefore = upstream.hangs.length;

      // Expired: the old copy is answered at once while the refresh fails (retries and timeouts included)
      // in the background; once it has failed the copy is marked stale. Every answer until then is the good copy.
      const answers = await bothUntil(
        expect,
        server,
        upstream,
        ({ api, page }) => api.headers.get("x-events-stale") === "true" && page.text.includes(PAGE_STALE),
        { message: "the API and the page marked the copy stale" },
      );
      for (const answer of answers) {
        expect(answer.api.status).toBe(200);
        expect((JSON.parse(answer.api.text) as EventsResponse).events).toEqual(goodBody.events);
        expect(answer.page.text).toContain(upstream.title);
      }
      const latest = answers.at(-1)!;
      expect(latest.api.headers.get("x-events-stale")).toBe("true");
      const staleBody = JSON.parse(latest.api.text) as EventsResponse;
      expect(staleBody).toMatchObject({ stale: true, events: goodBody.events });
      // The time of the last good read: one after the recovery, perhaps a background refresh already
      // on its way when fail() was called (hence a second of slack), never the time of a failed one.
      expect(goodBody).not.toHaveProperty("updatedAt");
      expect(Date.parse(staleBody.updatedAt ?? "")).toBeGreaterThanOrEqual(beforeGoodRead);
      expect(Date.parse(staleBody.updatedAt ?? "")).toBeLessThanOrEqual(failedAt + 1_000);
      expect(latest.page.text).toContain(PAGE_STALE);
      expect(upstream.requestCount()).toBeGreaterThan(requestsBefore);

      if (fault.name.includes("timeout")) await expectUpstreamTimeout(expect, server, upstream, hangsBefore);
      for (const secret of upstream.secrets) expect(server.output()).not.toContain(secret);
    },
  );
});

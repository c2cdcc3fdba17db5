import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "~/events/model";
import { createEventsCache, EventsUnavailableError, exponentialBackoff, MAX_STALE_MS, type ReadResult } from "./cache.server";
import { UpstreamError } from "./fetch-upstream.server";
import { serializeEvents } from "./read-calendar.server";

const eventsJsonHashOf = (list: CalendarEvent[]) => serializeEvents(list).eventsJsonHash;

/** What a read of a source that sent `list` brings: unchanged when it is what the copy came from. */
function resultOf(list: CalendarEvent[], lastResponseHash: string | undefined): ReadResult {
  const serialized = serializeEvents(list);
  const responseHash = serialized.eventsJsonHash;
  return responseHash === lastResponseHash
    ? { changed: false, responseHash }
    : { changed: true, responseHash, events: list, ...serialized };
}

const TTL = 300_000;
const HOUR = 3_600_000;

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const events = (name: string): CalendarEvent[] => [{ id: name, summary: name }];

/** A cache over a scripted source and a clock that only moves when told. */
function harness(options: Partial<Parameters<typeof createEventsCache>[0]> = {}) {
  let time = Date.parse("2026-03-01T12:00:00Z");
  const clock = { now: () => time };
  const pending: ReturnType<typeof deferred<CalendarEvent[]>>[] = [];
  const logs: string[] = [];
  const debugLogs: string[] = [];
  const cache = createEventsCache({
    ttlMs: TTL,
    clock,
    // Without jitter: 5 s, 10 s, 20 s…
    backoff: exponentialBackoff(() => 0),
    log: { warn: (m) => void logs.push(`warn ${m}`), info: (m) => void logs.push(`info ${m}`), debug: (m) => void debugLogs.push(m) },
    ...options,
    load: (lastResponseHash) => {
      const d = deferred<CalendarEvent[]>();
      pending.push(d);
      return d.promise.then((list) => resultOf(list, lastResponseHash));
    },
  });
  return {
    cache,
    logs,
    debugLogs,
    loads: () => pending.length,
    last: () => pending.at(-1)!,
    advance: (ms: number) => void (time += ms),
    now: () => time,
  };
}

async function rejection(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
}

describe("events cache", () => {
  it("coalesces concurrent cold requests into one load", async () => {
    const h = harness();
    const all = Promise.all(Array.from({ length: 50 }, () => h.cache.get()));
    await settle();
    expect(h.loads()).toBe(1);
    h.last().resolve(events("a"));
    const answers = await all;
    expect(new Set(answers.map((a) => a.events[0]?.id))).toEqual(new Set(["a"]));
    expect(answers[0]).toMatchObject({ stale: false, fetchedAt: h.now() });
  });

  it("answers from memory while fresh", async () => {
    const h = harness();
    const first = h.cache.get();
    h.last().resolve(events("a"));
    await first;
    h.advance(TTL - 1);
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("a"), stale: false });
    expect(h.loads()).toBe(1);
  });

  it("after expiry answers the old copy at once and runs exactly one background refresh", async () => {
    const h = harness();
    const first = h.cache.get();
    h.last().resolve(events("a"));
    await first;
    h.advance(TTL + 1);

    // The refresh is still pending, yet every caller is answered with the old copy.
    const during = await Promise.all(Array.from({ length: 20 }, () => h.cache.get()));
    expect(during.every((s) => s.events[0]?.id === "a" && !s.stale)).toBe(true);
    expect(h.loads()).toBe(2);

    h.last().resolve(events("b"));
    await settle();
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("b"), stale: false, fetchedAt: h.now() });
    expect(h.loads()).toBe(2);
  });

  it("serves the last good copy marked stale when the refresh fails, for up to 24 hours", async () => {
    const h = harness();
    const first = h.cache.get();
    h.last().resolve(events("good"));
    await first;
    const goodAt = h.now();

    h.advance(TTL + 1);
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("good"), stale: false });
    h.last().reject(new Error("HTTP 500"));
    await settle();

    // Failure recorded: same events, same fetchedAt, stale: true; no new load while within the backoff.
    await expect(h.cache.get()).resolves.toMatchObject({
      events: events("good"),
      eventsJsonHash: eventsJsonHashOf(events("good")),
      fetchedAt: goodAt,
      stale: true,
    });
    h.advance(4_999);
    await h.cache.get();
    expect(h.loads()).toBe(2);
    expect(h.logs.join("\n")).toContain("refresh failed (HTTP 500)");

    // Retried after the first backoff (5 s), still failing: still the stale copy.
    h.advance(1);
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("good"), stale: true });
    expect(h.loads()).toBe(3);
    h.last().reject(new Error("HTTP 500"));
    await settle();

    // 23 hours later the copy is still served (and refreshed in the background).
    h.advance(23 * HOUR);
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("good"), stale: true });
    h.last().reject(new Error("HTTP 500"));
    await settle();

    // Past 24 hours since the good load: never answered again; the caller waits for the load and gets the failure.
    h.advance(goodAt + MAX_STALE_MS - h.now());
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("good"), stale: true }); // exactly 24 h: still served
    h.last().reject(new Error("HTTP 500"));
    await settle();
    expect(h.now() - goodAt).toBe(MAX_STALE_MS);
    h.advance(1);
    const loadsBefore = h.loads();
    // Nothing to answer and the fourth backoff (40 s) running: refused at once, without a read.
    expect(await rejection(h.cache.get())).toBeInstanceOf(EventsUnavailableError);
    expect(h.loads()).toBe(loadsBefore);
    h.advance(40_000);
    const failing = rejection(h.cache.get());
    await settle();
    expect(h.loads()).toBe(loadsBefore + 1);
    h.last().reject(new Error("HTTP 500"));
    expect(await failing).toBeInstanceOf(EventsUnavailableError);
  });

  it("recovers: a successful refresh after failures clears the stale flag", async () => {
    const h = harness();
    const first = h.cache.get();
    h.last().resolve(events("a"));
    await first;
    h.advance(TTL + 1);
    await h.cache.get();
    h.last().reject(new Error("timeout"));
    await settle();
    await expect(h.cache.get()).resolves.toMatchObject({ stale: true });
    h.advance(5_000);
    await h.cache.get();
    h.last().resolve(events("b"));
    await settle();
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("b"), stale: false });
  });

  it("fails with EventsUnavailableError when nothing was ever loaded, and reads again only after the backoff", async () => {
    const h = harness();
    const all = Promise.all(Array.from({ length: 5 }, () => rejection(h.cache.get())));
    await settle();
    expect(h.loads()).toBe(1);
    h.last().reject(new Error("HTTP 503"));
    for (const error of await all) expect(error).toBeInstanceOf(EventsUnavailableError);

    h.advance(4_999);
    expect(await rejection(h.cache.get())).toBeInstanceOf(EventsUnavailableError);
    expect(h.loads()).toBe(1);
    h.advance(1);
    const again = h.cache.get();
    await settle();
    expect(h.loads()).toBe(2);
    h.last().resolve(events("late"));
    await expect(again).resolves.toMatchObject({ events: events("late"), stale: false });
  });

  it("reports its state for /readyz: cold, fresh, stale, failing, and the last success and failure times", async () => {
    const h = harness();
    expect(h.cache.status()).toEqual({
      state: "cold",
      lastSuccessAt: undefined,
      lastFailureAt: undefined,
      consecutiveFailures: 0,
      nextAttemptAt: undefined,
    });

    const first = h.cache.get();
    h.last().resolve(events("a"));
    await first;
    const goodAt = h.now();
    expect(h.cache.status()).toEqual({
      state: "fresh",
      lastSuccessAt: goodAt,
      lastFailureAt: undefined,
      consecutiveFailures: 0,
      nextAttemptAt: goodAt + TTL,
    });

    h.advance(TTL + 1);
    await h.cache.get();
    h.last().reject(new Error("HTTP 500"));
    await settle();
    expect(h.cache.status()).toEqual({
      state: "stale",
      lastSuccessAt: goodAt,
      lastFailureAt: h.now(),
      consecutiveFailures: 1,
      nextAttemptAt: h.now() + 5_000,
    });

    // Past 24 hours nothing can be served: failing.
    h.advance(MAX_STALE_MS);
    const failed = rejection(h.cache.get());
    await settle();
    h.last().reject(new Error("HTTP 500"));
    await failed;
    expect(h.cache.status()).toMatchObject({ state: "failing", lastSuccessAt: goodAt, lastFailureAt: h.now(), consecutiveFailures: 2 });

    h.advance(10_000);
    const again = h.cache.get();
    await settle();
    h.last().resolve(events("b"));
    await again;
    expect(h.cache.status()).toMatchObject({ state: "fresh", lastSuccessAt: h.now(), consecutiveFailures: 0 });
  });

  it("logs an outage once (its first failure), repeats at debug, and logs the recovery once", async () => {
    const h = harness();
    const first = h.cache.get();
    h.last().resolve(events("a"));
    await first;
    for (let i = 0; i < 5; i++) {
      h.advance(TTL + 1);
      await h.cache.get();
      h.last().reject(new Error("HTTP 503"));
      await settle();
    }
    expect(h.logs).toEqual([expect.stringMatching(/^warn \[events\] refresh failed \(HTTP 503\); serving the copy from /)]);
    expect(h.debugLogs).toHaveLength(4);

    h.advance(TTL + 1);
    await h.cache.get();
    h.last().resolve(events("b"));
    await settle();
    expect(h.logs).toHaveLength(2);
    expect(h.logs[1]).toBe("info [events] the calendar answers again, after 5 failed reads");

    // A later outage is a new incident, logged again.
    h.advance(TTL + 1);
    await h.cache.get();
    h.last().reject(new Error("timeout"));
    await settle();
    expect(h.logs).toHaveLength(3);
    expect(h.logs[2]).toMatch(/^warn \[events\] refresh failed \(timeout\)/);
  });

  it("makes a caller with nothing to answer wait at most maxWaitMs; the load goes on and serves the next caller", async () => {
    const h = harness({ maxWaitMs: 50 });
    const started = performance.now();
    const error = await rejection(h.cache.get());
    expect(error).toBeInstanceOf(EventsUnavailableError);
    expect((error as Error).message).toBe("The events calendar did not answer within 50 ms.");
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(h.loads()).toBe(1);

    // A second caller joins the same load (no new one) and is answered when it completes.
    const second = h.cache.get();
    await settle();
    expect(h.loads()).toBe(1);
    h.last().resolve(events("late"));
    await expect(second).resolves.toMatchObject({ events: events("late"), stale: false });
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("late") });
    expect(h.loads()).toBe(1);
  });

  it("does not make a caller wait when a copy exists, however long the refresh takes", async () => {
    const h = harness({ maxWaitMs: 20 });
    const first = h.cache.get();
    h.last().resolve(events("a"));
    await first;
    h.advance(TTL + 1);
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("a") });
    await new Promise((resolve) => setTimeout(resolve, 40));
    // The refresh is still running past the wait; answers still come from the copy.
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("a") });
    expect(h.loads()).toBe(2);
    // A refresh that fails long after every caller was answered is handled (no unhandled rejection).
    h.last().reject(new Error("late failure"));
    await settle();
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("a"), stale: true });
  });

  it("handles a cold load that fails after its callers stopped waiting", async () => {
    const h = harness({ maxWaitMs: 20 });
    expect(await rejection(h.cache.get())).toBeInstanceOf(EventsUnavailableError);
    h.last().reject(new Error("HTTP 500 after the wait"));
    await settle();
    expect(h.logs.join("\n")).toContain("loading events failed (HTTP 500 after the wait)");
    // The first caller after the backoff starts a new load.
    h.advance(5_000);
    const again = h.cache.get();
    await settle();
    expect(h.loads()).toBe(2);
    h.last().resolve(events("b"));
    await expect(again).resolves.toMatchObject({ events: events("b") });
  });

  it("asks a failing calendar at most once per backoff interval, whatever callers do", async () => {
    const h = harness({ backoff: exponentialBackoff(() => 1) }); // the longest jitter: 6 s, 12 s…
    // 100 callers over 10 s, every read failing at once.
    let failed = 0;
    for (let i = 0; i < 100; i++) {
      const answer = rejection(h.cache.get());
      await settle();
      if (h.loads() > failed) {
        h.last().reject(new Error("HTTP 500"));
        failed += 1;
      }
      expect(await answer).toBeInstanceOf(EventsUnavailableError);
      h.advance(100);
    }
    // A read at 0 s, the next after 6 s, the third not before 18 s.
    expect(h.loads()).toBe(2);
  });

  it("waits as long as the upstream asks (Retry-After, quota) when that is longer than the backoff", async () => {
    const h = harness();
    const first = rejection(h.cache.get());
    await settle();
    h.last().reject(new UpstreamError("Google Calendar answered HTTP 403", "http", 403, false, 300_000));
    await first;
    expect(h.cache.status().nextAttemptAt).toBe(h.now() + 300_000);
    expect(h.logs.join("\n")).toContain("next read in 300 s");
  });

  it("backs off 5 s, doubling to 5 minutes, stretched by up to a fifth", () => {
    const none = exponentialBackoff(() => 0);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map(none)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
    const most = exponentialBackoff(() => 1);
    expect(most(1)).toBe(6_000);
    expect(most(9)).toBe(360_000);
  });

  it("answers a restored copy at once, as stale with its own time, while the first read runs", async () => {
    const restoredAt = Date.parse("2026-03-01T11:00:00Z");
    const h = harness();
    h.cache.restore({ events: events("saved"), fetchedAt: restoredAt, ...serializeEvents(events("saved")) });
    expect(h.cache.status()).toMatchObject({ state: "restored", lastSuccessAt: restoredAt });
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("saved"), stale: true, fetchedAt: restoredAt });
    expect(h.loads()).toBe(1);
    h.last().resolve(events("saved"));
    await settle();
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("saved"), stale: false, fetchedAt: h.now() });
    expect(h.cache.status().state).toBe("fresh");
  });

  it("ignores a restored copy past 24 hours", async () => {
    const h = harness();
    h.cache.restore({ events: events("old"), fetchedAt: Date.parse("2026-02-28T11:59:59Z"), ...serializeEvents(events("old")) });
    const cold = h.cache.get();
    await settle();
    h.last().resolve(events("new"));
    await expect(cold).resolves.toMatchObject({ events: events("new"), stale: false });
  });

  it("keeps the same array and responseHash when a read finds the same calendar, and tells onRead every good read", async () => {
    const reads: string[] = [];
    const h = harness({ onRead: (copy, changed) => void reads.push(`${copy.eventsJsonHash} ${changed}`) });
    const first = h.cache.get();
    h.last().resolve(events("a"));
    const a = await first;
    h.advance(TTL);
    await h.cache.get();
    h.last().resolve(events("a"));
    await settle();
    const again = await h.cache.get();
    expect(again.events).toBe(a.events);
    expect(again.eventsJsonHash).toBe(a.eventsJsonHash);
    expect(again.fetchedAt).toBe(h.now());
    expect(reads).toEqual([`${a.eventsJsonHash} true`, `${a.eventsJsonHash} false`]);
  });

  it("asks each read with the responseHash its copy came from, and none for a restored copy", async () => {
    const responseHashes: (string | undefined)[] = [];
    const h = harness();
    const load = (lastResponseHash: string | undefined) => (
      responseHashes.push(lastResponseHash),
      Promise.resolve(resultOf(events("a"), lastResponseHash))
    );
    const cache = createEventsCache({ ttlMs: TTL, clock: { now: h.now }, load });
    cache.restore({ events: events("a"), fetchedAt: h.now(), ...serializeEvents(events("a")) });
    await cache.get();
    await settle();
    expect(cache.status().state).toBe("fresh");
    h.advance(TTL);
    await cache.get();
    await settle();
    expect(responseHashes).toEqual([undefined, eventsJsonHashOf(events("a"))]);
  });

  it("counts a good read as good when what follows it throws, and says so once", async () => {
    const h = harness({
      onRead: () => {
        throw new Error("disk full");
      },
    });
    const first = h.cache.get();
    h.last().resolve(events("a"));
    await expect(first).resolves.toMatchObject({ events: events("a"), stale: false });
    expect(h.cache.status()).toMatchObject({ state: "fresh", consecutiveFailures: 0 });
    expect(h.logs.filter((line) => line.includes("disk full"))).toHaveLength(1);
  });

  it("starts the first read when primed, once", async () => {
    const h = harness();
    h.cache.prime();
    h.cache.prime();
    expect(h.loads()).toBe(1);
    expect(h.cache.status().state).toBe("cold");
  });
});

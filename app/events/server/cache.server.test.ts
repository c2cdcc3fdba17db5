import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "~/events/model";
import { createEventsCache, EventsUnavailableError, MAX_STALE_MS } from "./cache.server";

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
function harness(options: { maxWaitMs?: number } = {}) {
  let time = Date.parse("2026-03-01T12:00:00Z");
  const clock = { now: () => time };
  const pending: ReturnType<typeof deferred<CalendarEvent[]>>[] = [];
  const logs: string[] = [];
  const debugLogs: string[] = [];
  const cache = createEventsCache({
    ttlMs: TTL,
    clock,
    log: { warn: (m) => void logs.push(`warn ${m}`), info: (m) => void logs.push(`info ${m}`), debug: (m) => void debugLogs.push(m) },
    ...options,
    load: () => {
      const d = deferred<CalendarEvent[]>();
      pending.push(d);
      return d.promise;
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

    // Failure recorded: same events, same fetchedAt, stale: true; no new load while within the retry interval.
    await expect(h.cache.get()).resolves.toEqual({ events: events("good"), fetchedAt: goodAt, stale: true });
    expect(h.loads()).toBe(2);
    expect(h.logs.join("\n")).toContain("refresh failed (HTTP 500)");

    // Retried after min(ttl, 30 s), still failing: still the stale copy.
    h.advance(30_001);
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
    h.advance(30_001);
    await h.cache.get();
    h.last().resolve(events("b"));
    await settle();
    await expect(h.cache.get()).resolves.toMatchObject({ events: events("b"), stale: false });
  });

  it("fails with EventsUnavailableError when nothing was ever loaded, and tries again on the next call", async () => {
    const h = harness();
    const all = Promise.all(Array.from({ length: 5 }, () => rejection(h.cache.get())));
    await settle();
    expect(h.loads()).toBe(1);
    h.last().reject(new Error("HTTP 503"));
    for (const error of await all) expect(error).toBeInstanceOf(EventsUnavailableError);

    const again = h.cache.get();
    await settle();
    expect(h.loads()).toBe(2);
    h.last().resolve(events("late"));
    await expect(again).resolves.toMatchObject({ events: events("late"), stale: false });
  });

  it("reports its state for /readyz: cold, fresh, stale, failing, and the last success and failure times", async () => {
    const h = harness();
    expect(h.cache.status()).toEqual({ state: "cold", lastSuccessAt: undefined, lastFailureAt: undefined, consecutiveFailures: 0 });

    const first = h.cache.get();
    h.last().resolve(events("a"));
    await first;
    const goodAt = h.now();
    expect(h.cache.status()).toEqual({ state: "fresh", lastSuccessAt: goodAt, lastFailureAt: undefined, consecutiveFailures: 0 });

    h.advance(TTL + 1);
    await h.cache.get();
    h.last().reject(new Error("HTTP 500"));
    await settle();
    expect(h.cache.status()).toEqual({ state: "stale", lastSuccessAt: goodAt, lastFailureAt: h.now(), consecutiveFailures: 1 });

    // Past 24 hours nothing can be served: failing.
    h.advance(MAX_STALE_MS);
    const failed = rejection(h.cache.get());
    await settle();
    h.last().reject(new Error("HTTP 500"));
    await failed;
    expect(h.cache.status()).toMatchObject({ state: "failing", lastSuccessAt: goodAt, lastFailureAt: h.now(), consecutiveFailures: 2 });

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
    // The next caller starts a new load.
    const again = h.cache.get();
    await settle();
    expect(h.loads()).toBe(2);
    h.last().resolve(events("b"));
    await expect(again).resolves.toMatchObject({ events: events("b") });
  });
});

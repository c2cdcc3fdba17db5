import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LISTED_EVENT_IDS, startFakeGoogleCalendar, type FakeGoogleCalendar } from "../../../tests/fakes/google-calendar";
import type { UpstreamOptions } from "./fetch-upstream.server";
import { UpstreamError } from "./fetch-upstream.server";
import { generateGoogleEvents } from "../../../tests/fakes/google-events";
import {
  fetchGoogleEvents,
  GOOGLE_FIELDS,
  GOOGLE_LIMITS,
  GOOGLE_PAGE_SIZE,
  googleListUrl,
  googleUsageLimit,
  isGoogleRateLimit,
  type GoogleSourceConfig,
} from "./google-source.server";
import { eventsWindow } from "./time.server";
import { rejectionOf } from "../../../tests/support/rejection";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const window = eventsWindow(new Date(NOW));
let fake: FakeGoogleCalendar;
let config: GoogleSourceConfig;
let logs: string[];
/**
 * Each test's requests carry its number: a request of a part that another's failure stopped may reach the
 * fake after its test has ended, and is then not the next test's.
 */
let run = 0;
const RUN_HEADER = "x-test-run";
/** The requests this test's reads made, as the fake received them. */
const asked = () => fake.requests.filter((request) => request.headers[RUN_HEADER] === String(run));
/** The fake and the log as they start, for a test's next read. */
function fresh(): void {
  run += 1;
  fake.reset();
  logs = [];
}

const options = (overrides: Partial<UpstreamOptions> = {}): UpstreamOptions => ({
  // No answer of the fake's takes this long, however busy the machine: only the timeout's own test sets a short one.
  timeoutMs: 60_000,
  retries: 2,
  backoffMs: () => 1,
  sleep: async () => {},
  fetch: (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set(RUN_HEADER, String(run));
    return fetch(input, { ...init, headers });
  },
  log: (m) => void logs.push(m),
  ...overrides,
});

beforeAll(async () => {
  fake = await startFakeGoogleCalendar({ now: () => NOW });
  config = { calendarId: fake.calendarId, apiKey: fake.apiKey, baseUrl: fake.url };
});
afterAll(() => fake.close());
beforeEach(fresh);

const failure = (promise: Promise<unknown>) => rejectionOf(promise, UpstreamError);

/**
 * Both parts (upcoming, past) failing alike, each retried: the one that fails first made `attempts`
 * requests; the other, stopped then, made as many or one fewer (its request then in flight may or may not
 * have reached the fake).
 */
function expectAttempts(attempts: number): void {
  const byPart = new Map<string, number>();
  for (const request of asked()) {
    const part = request.query.get("timeMin") ?? "";
    byPart.set(part, (byPart.get(part) ?? 0) + 1);
  }
  const counts = [...byPart.values()];
  expect(counts).toHaveLength(2);
  expect(Math.max(...counts)).toBe(attempts);
  expect(Math.min(...counts)).toBeGreaterThanOrEqual(attempts - 1);
}

describe("fetchGoogleEvents against the fake Google Calendar", () => {
  it("reads the upcoming part of the window on its own, beside the past part, only our fields, compact, without cancelled events", async () => {
    const events = await fetchGoogleEvents(config, window, options());
    expect(asked().length).toBe(2);
    const common = {
      key: fake.apiKey,
      singleEvents: "true",
      orderBy: "startTime",
      maxResults: "500",
      fields: "nextPageToken,items(id,status,summary,description,location,start,end,updated)",
      prettyPrint: "false",
    };
    const queries = asked()
      .map((r) => Object.fromEntries(r.query))
      .sort((x, y) => (x.timeMin! < y.timeMin! ? 1 : -1));
    expect(queries).toEqual([
      { ...common, timeMin: "2026-03-01T12:00:00.000Z", timeMax: "2027-03-01T12:00:00.000Z" },
      { ...common, timeMin: "2025-03-01T12:00:00.000Z", timeMax: "2026-03-01T12:00:00.000Z" },
    ]);
    for (const r of asked()) expect(r.path).toBe(`/calendar/v3/calendars/${encodeURIComponent(fake.calendarId)}/events`);
    const ids = events.map((e) => e.id);
    expect(ids).toEqual(LISTED_EVENT_IDS);
    expect(ids.some((id) => id.startsWith("cancelled"))).toBe(false);
    expect(fake.unhandled).toEqual([]);
  });

  it("lists every upcoming event of a busy calendar (3,000 events in the window)", async () => {
    fake.setScenario("busy");
    // A 3,000-event page takes a while to build on a busy machine: no retries from a short timeout.
    const events = await fetchGoogleEvents(config, window, options());
    const daily = events.filter((e) => e.id.startsWith("daily"));
    expect(daily).toHaveLength(3_000);
    const upcoming = daily.filter((e) => e.start && "dateTime" in e.start && Date.parse(e.start.dateTime) >= NOW);
    expect(upcoming).toHaveLength(1_500);
    // The last instance of each series, 299 days ahead, is there.
    expect(events.filter((e) => e.id.startsWith("daily") && e.id.includes("20261225"))).toHaveLength(5);
    // About 1,505 events a part: four pages of 500 each.
    expect(asked().length).toBe(8);
    expect(logs).toEqual([]);
  });

  it("past the event limit, leaves out the oldest past events, never upcoming ones, and says how many", async () => {
    fake.setScenario("busy");
    const all = await fetchGoogleEvents(config, window, options());
    logs = [];
    const capped = await fetchGoogleEvents(config, window, options(), undefined, { maxPages: 10, maxEvents: 2_000 });
    expect(capped).toHaveLength(2_000);
    const upcomingIds = all
      .filter((e) => e.start && Date.parse("dateTime" in e.start ? e.start.dateTime : e.start.date) >= NOW)
      .map((e) => e.id);
    expect(capped.slice(-upcomingIds.length).map((e) => e.id)).toEqual(upcomingIds);
    // Exactly the newest past events are kept.
    expect(capped.map((e) => e.id)).toEqual(all.slice(all.length - 2_000).map((e) => e.id));
    expect(logs).toEqual([
      `[events] Google Calendar has more than 2000 events in the window: the ${all.length - 2_000} oldest past events are left out`,
    ]);
  });

  it("keeps an unreadable start as written, and drops items Google's schema would never send, naming them", async () => {
    fake.setScenario("oddItems");
    const events = await fetchGoogleEvents(config, window, options());
    expect(events.find((e) => e.id === "unparseable")).toMatchObject({
      summary: "Founders dinner (date to be confirmed)",
      start: { dateTime: "not-a-real-date", timeZone: "America/New_York" },
    });
    expect(events.find((e) => e.id === "undated")?.start).toBeUndefined();
    expect(events.map((e) => e.id)).toEqual([...LISTED_EVENT_IDS, "unparseable", "undated"]);
    expect(logs).toEqual([
      '[events] Google Calendar: 2 unreadable events left out, the rest is shown: (an item without an id), "startisanumber"',
    ]);
  });

  it("maps Google's resource: New York offsets, all-day dates, sanitized HTML", async () => {
    const events = await fetchGoogleEvents(config, window, options());
    const dinner = events.find((e) => e.id === "past30")!;
    expect(dinner.start).toMatchObject({ timeZone: "America/New_York" });
    expect(dinner.start && "dateTime" in dinner.start && dinner.start.dateTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00-0[45]:00$/);
    expect(dinner.description).toBe("<b>Members only.</b><ul><li>Dinner</li><li>Hot seat</li></ul>");
    expect(events.find((e) => e.id === "retreat")).toMatchObject({ start: { date: "2026-04-10" }, end: { date: "2026-04-13" } });
  });

  it("follows nextPageToken through short and empty pages", async () => {
    fake.setScenario("paginated");
    const paged = await fetchGoogleEvents(config, window, options());
    // upcoming: pages of 2, 1, 0 (each still carrying a token), then the rest; past: the same
    expect(asked().length).toBe(8);
    expect(asked().filter((r) => r.query.get("pageToken"))).toHaveLength(6);
    fake.setScenario("normal");
    expect(paged.map((e) => e.id)).toEqual((await fetchGoogleEvents(config, window, options())).map((e) => e.id));
  });

  it("stops a token that never ends after 100 pages a part", async () => {
    let calls = 0;
    const endless: UpstreamOptions["fetch"] = async () => {
      calls++;
      return Response.json({ items: [], nextPageToken: `t${calls}` });
    };
    await expect(fetchGoogleEvents(config, window, options({ fetch: endless }))).resolves.toEqual([]);
    expect(GOOGLE_LIMITS.maxPages).toBe(100);
    expect(calls).toBe(200);
    expect(logs).toEqual([
      "[events] Google Calendar has more than 100 pages of upcoming events; the latest are left out",
      "[events] Google Calendar has more than 100 pages of past events in the window; the most recent past ones are left out",
    ]);
  });

  it(
    "reads a calendar at Google's documented maximum (25,000 events in the window) in full, in pages of 500",
    // 25,000 events made, served and read in 52 pages: a few seconds of work on a quiet machine.
    { timeout: 60_000 },
    async () => {
      const calendar = generateGoogleEvents({ count: 25_000, now: NOW, calendarId: fake.calendarId });
      fake.setEvents(calendar);
      const events = await fetchGoogleEvents(config, window, options());
      expect(events).toHaveLength(25_000);
      expect(new Set(events.map((e) => e.id))).toEqual(new Set(calendar.map((e) => e.id)));
      // 25,000 events over two years: about 12,500 a part, 25 or 26 pages each.
      // A page retried on a starved machine (its attempt line) is no cut: nothing else is said.
      const retry = (line: string) => / \(attempt \d of \d, retrying\)$/.test(line);
      expect(asked().length).toBeGreaterThanOrEqual(50);
      expect(asked().length).toBeLessThanOrEqual(52 + logs.filter(retry).length);
      expect(
        logs.filter((line) => !retry(line)),
        logs.join("\n"),
      ).toEqual([]);
    },
  );

  it("serves what it read when a later page is over the body limit, and names the limit and the cut", async () => {
    const calendar = generateGoogleEvents({ count: 2_400, now: NOW, calendarId: fake.calendarId });
    fake.setEvents(calendar);
    const all = await fetchGoogleEvents(config, window, options());
    expect(all).toHaveLength(2_400);
    fresh();
    fake.setEvents(calendar);
    fake.setScenario("oversizedAfterFirstPage");
    const events = await fetchGoogleEvents(config, window, options());
    // The first page of each part, in Google's order (by start): the oldest past events, the soonest upcoming ones.
    const ends = (e: (typeof calendar)[number]) => Date.parse("dateTime" in e.end ? e.end.dateTime : `${e.end.date}T00:00:00Z`);
    const starts = (e: (typeof calendar)[number]) => Date.parse("dateTime" in e.start ? e.start.dateTime : `${e.start.date}T00:00:00Z`);
    const pastPage = calendar.filter((e) => ends(e) > window.start.getTime() && starts(e) < NOW).slice(0, GOOGLE_PAGE_SIZE);
    const upcomingPage = calendar.filter((e) => ends(e) > NOW && starts(e) < window.end.getTime()).slice(0, GOOGLE_PAGE_SIZE);
    const expected = new Set([...pastPage, ...upcomingPage].map((e) => e.id));
    expect(events).toHaveLength(expected.size);
    expect(new Set(events.map((e) => e.id))).toEqual(expected);
    expect(asked().length).toBe(4);
    expect(logs.filter((line) => !line.includes("(attempt 1 of 3)"))).toEqual([
      "[events] Google Calendar: page 2 of the upcoming events is larger than the 5 MB limit for one answer: the latest upcoming events (from page 2 on) are left out; the 500 upcoming events of pages 1 to 1 are shown",
      "[events] Google Calendar: page 2 of the past events is larger than the 5 MB limit for one answer: the most recent past events (from page 2 on) are left out; the 500 past events of pages 1 to 1 are shown",
    ]);
  });

  it("fails a read whose first page is over the body limit, saying so, without retrying", async () => {
    fake.setScenario("oversized");
    expect((await failure(fetchGoogleEvents(config, window, options()))).kind).toBe("too-large");
    expect(asked().length).toBe(2);
    // Both parts are read at once; the first to fail names itself and stops the other.
    expect(logs.join("\n")).toMatch(
      /\[events\] Google Calendar: page 1 of the (upcoming|past) events is larger than the 5 MB limit for one answer/,
    );
  });

  it("stops the other part when one fails, and logs nothing for the stopped one", async () => {
    let pastAborted = false;
    const split: UpstreamOptions["fetch"] = async (input, init) => {
      const query = new URL(String(input)).searchParams;
      if (query.get("timeMin") === window.start.toISOString()) {
        // The past part hangs until it is stopped.
        return new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => {
            pastAborted = true;
            reject(new DOMException("aborted", "AbortError"));
          }),
        );
      }
      return Response.json({ error: { code: 404, errors: [{ reason: "notFound" }] } }, { status: 404 });
    };
    const error = await failure(fetchGoogleEvents(config, window, options({ fetch: split })));
    expect(error.status).toBe(404);
    expect(pastAborted).toBe(true);
    expect(logs.some((line) => line.includes("aborted"))).toBe(false);
  });

  it("answers an empty calendar as no events", async () => {
    fake.setScenario("empty");
    await expect(fetchGoogleEvents(config, window, options())).resolves.toEqual([]);
  });

  it("sanitizes hostile descriptions", async () => {
    fake.setScenario("hostile");
    const events = await fetchGoogleEvents(config, window, options());
    const hostile = events.filter((e) => e.id.startsWith("hostile")).map((e) => e.description);
    expect(hostile).toEqual(["Hello", "Image", "<span>Click me</span>"]);
  });

  it("retries Google's 403 rateLimitExceeded and 500, then fails", async () => {
    for (const scenario of ["rateLimit403", "error500"] as const) {
      fresh();
      fake.setScenario(scenario);
      const error = await failure(fetchGoogleEvents(config, window, options()));
      // 3 attempts for the part that failed first; the other, read beside it, is stopped then; each line logged once.
      expectAttempts(3);
      expect(error.status).toBe(scenario === "error500" ? 500 : 403);
      expect(logs.filter((line) => line.includes("attempt 1 of 3"))).toHaveLength(1);
    }
  });

  it("does not retry a bad key or a 404, and logs them as configuration errors without the key", async () => {
    const badKey = await failure(fetchGoogleEvents({ ...config, apiKey: "AIza-wrong-key" }, window, options()));
    expect(badKey.status).toBe(400);
    expect(asked().length).toBe(2); // one for each part
    fake.setScenario("notFound");
    const notFound = await failure(fetchGoogleEvents(config, window, options()));
    expect(notFound.status).toBe(404);
    expect(asked().length).toBe(4);
    expect(logs.filter((line) => line.includes("configuration error: Google Calendar answered 404"))).toHaveLength(1);
    expect(logs.join("\n")).toContain("configuration error: Google Calendar answered 404 for GOOGLE_CALENDAR_ID");
    expect(logs.join("\n")).toContain("check GOOGLE_API_KEY");
    for (const text of [...logs, badKey.message, notFound.message]) {
      expect(text).not.toContain(fake.apiKey);
      expect(text).not.toContain("AIza-wrong-key");
      expect(text).not.toContain("127.0.0.1");
    }
  });

  it("logs a 403 quotaExceeded as a quota problem, not as a bad key, without retrying", async () => {
    fake.setScenario("quota403");
    const error = await failure(fetchGoogleEvents(config, window, options()));
    expect(error).toMatchObject({ status: 403, retryable: false });
    expect(asked().length).toBe(2);
    const log = logs.join("\n");
    expect(log).toContain("[events] Google Calendar usage limits exceeded (quotaExceeded)");
    expect(log).not.toContain("configuration error");
    expect(log).not.toContain(fake.apiKey);
  });

  it("logs a retried 403 rateLimitExceeded that never clears as a usage limit too", async () => {
    fake.setScenario("rateLimit403");
    await failure(fetchGoogleEvents(config, window, options()));
    expectAttempts(3);
    expect(logs.join("\n")).toContain("usage limits exceeded (rateLimitExceeded)");
    expect(logs.join("\n")).not.toContain("configuration error");
  });

  it("fails on malformed JSON without retrying", async () => {
    fake.setScenario("malformed");
    expect((await failure(fetchGoogleEvents(config, window, options()))).kind).toBe("invalid-body");
    expect(asked().length).toBe(2);
  });

  it("times out an answer that never comes (300 ms here) and gives up after 3 attempts", async () => {
    fake.setScenario("hang");
    expect((await failure(fetchGoogleEvents(config, window, options({ timeoutMs: 300 })))).kind).toBe("timeout");
    expect(asked().length).toBe(6);
    // Each attempt was dropped by the client, not answered.
    await expect.poll(() => fake.hangs.length).toBe(6);
  });
});

describe("Google helpers", () => {
  it("asks for our fields only, compact, in pages of 500", () => {
    const url = new URL(googleListUrl({ calendarId: "c", apiKey: "k", baseUrl: "https://x.example/v3" }, window, "next"));
    expect(url.searchParams.get("fields")).toBe(GOOGLE_FIELDS);
    expect(GOOGLE_FIELDS).toBe("nextPageToken,items(id,status,summary,description,location,start,end,updated)");
    expect(url.searchParams.get("prettyPrint")).toBe("false");
    expect(url.searchParams.get("maxResults")).toBe("500");
    expect(url.searchParams.get("pageToken")).toBe("next");
  });

  it("allows every part Google's documented maximum of events in the window, in half-full pages", () => {
    expect(GOOGLE_LIMITS.maxEvents).toBe(25_000);
    expect(GOOGLE_LIMITS.maxPages * GOOGLE_PAGE_SIZE).toBe(2 * 25_000);
  });

  it("encodes the calendar id in the path", () => {
    expect(googleListUrl({ calendarId: "a b/c@group.calendar.google.com", apiKey: "k", baseUrl: "https://x.example/v3/" }, window)).toMatch(
      /^https:\/\/x\.example\/v3\/calendars\/a%20b%2Fc%40group\.calendar\.google\.com\/events\?key=k&/,
    );
  });

  it.each([
    [429, "", true],
    [503, "", true],
    [403, '{"error":{"errors":[{"reason":"rateLimitExceeded"}]}}', true],
    [403, '{"error":{"errors":[{"reason":"userRateLimitExceeded"}]}}', true],
    [403, '{"error":{"errors":[{"reason":"forbidden"}]}}', false],
    [403, "not json", false],
    [400, "", false],
    [404, "", false],
  ])("isGoogleRateLimit(%i, %j) is %s", (status, body, expected) => {
    expect(isGoogleRateLimit(status, body)).toBe(expected);
  });

  it.each([
    [403, '{"error":{"errors":[{"domain":"usageLimits","reason":"quotaExceeded"}]}}', "quotaExceeded"],
    [403, '{"error":{"errors":[{"domain":"usageLimits","reason":"dailyLimitExceeded"}]}}', "dailyLimitExceeded"],
    [403, '{"error":{"errors":[{"reason":"rateLimitExceeded"}]}}', "rateLimitExceeded"],
    [403, '{"error":{"errors":[{"reason":"forbidden"}]}}', undefined],
    [403, '{"error":{"errors":"odd"}}', undefined],
    [403, "not json", undefined],
    [400, '{"error":{"errors":[{"reason":"quotaExceeded"}]}}', undefined],
  ])("googleUsageLimit(%i, %j) is %s", (status, body, expected) => {
    expect(googleUsageLimit(status, body)).toBe(expected);
  });
});

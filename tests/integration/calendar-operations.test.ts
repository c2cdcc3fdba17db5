// The calendar in production (issue 18), through the built server over HTTP: a failing calendar is
// asked at a bounded rate whatever visitors do, the last good read survives a restart during an
// outage, two servers reading one calendar answer the same bytes, and a feed written with leading
// whitespace is read.
import { mkdtempSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monthPagePath } from "~/events/archive";
import type { EventsResponse } from "~/events/model";
import { monthKeyOf } from "~/events/month-groups";
import { startFakeGoogleCalendar, LISTED_EVENT_IDS, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { startFakeIcsFeed, type FakeIcsFeed } from "../fakes/ics-feed";
import { suiteClock } from "../support/clock";
import { icsSource } from "../support/environments";
import { startGate } from "../support/gate";
import { rawRequest } from "../support/raw-http";
import { startServer, type RunningServer } from "../support/start-server";
import { UNTIL_MS } from "../support/timings";

type Readiness = { events: { state: string; consecutiveFailures: number; lastFailureAt: string | null; nextAttemptAt: string | null } };
const readiness = async (server: RunningServer) => JSON.parse((await rawRequest(server.url, "/readyz")).body) as Readiness;
const PAGE_STALE = "Showing events as last updated";

let fake: FakeGoogleCalendar;
let directory: string;
beforeAll(async () => {
  fake = await startFakeGoogleCalendar();
  directory = mkdtempSync(path.join(tmpdir(), "calendar-ops-"));
});
afterAll(async () => {
  await fake?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("a calendar failing from the start", () => {
  it("is asked once per backoff interval, however many visitors come; they get the error answer at once", async () => {
    fake.reset();
    fake.setScenario("error500");
    // A backoff of a minute: the visitors below all come within it, however slow the machine (the
    // test never waits for it to end: cache.server.test.ts reads again after it, operations.test.ts too).
    const server = await startServer({ ...fake.env, LOG_LEVEL: "info" }, { timings: { firstBackoffMs: 60_000 } });
    try {
      // The first read: both halves of the window, each tried twice.
      expect((await rawRequest(server.url, "/api/calendar/events")).status).toBe(502);
      const afterFirst = fake.requestCount();
      expect(afterFirst).toBeGreaterThan(0);
      expect(afterFirst).toBeLessThanOrEqual(4);
      const { events } = await readiness(server);
      expect(events).toMatchObject({ state: "failing", consecutiveFailures: 1 });
      const nextAttemptAt = Date.parse(events.nextAttemptAt ?? "");
      expect(nextAttemptAt - Date.parse(events.lastFailureAt ?? "")).toBeGreaterThanOrEqual(60_000);

      // Visitors keep coming before the backoff ends: no new read.
      const paths = ["/events", "/api/calendar/events", "/events?tab=past", "/sitemap.xml"];
      for (let i = 0; i < 40; i++) {
        const answer = await rawRequest(server.url, paths[i % paths.length]!);
        expect(answer.status).toBe(paths[i % paths.length] === "/api/calendar/events" ? 502 : 200);
      }
      // The server's nextAttemptAt is on its clock, the run's.
      expect(suiteClock().now()).toBeLessThan(nextAttemptAt);
      expect(fake.requestCount()).toBe(afterFirst);
      expect((await rawRequest(server.url, "/events")).body).toContain("Failed to load events from calendar.");
    } finally {
      await server.stop();
    }
  });
});

describe("a restart during an outage", () => {
  // Three servers start in turn (before, after the restart, another calendar's): a few seconds each on a quiet machine.
  it("serves the last good read from the saved copy, stale with its time, and never another calendar's", { timeout: 120_000 }, async () => {
    fake.reset();
    fake.setScenario("normal");
    // The calendar is asked through a gate, so the test sees the restored copy before the first read after the restart fails.
    const gate = await startGate(new URL(fake.url).origin, { open: true });
    const savedCopyPath = path.join(directory, "restart", "events.json");
    const env = { ...fake.env, GOOGLE_CALENDAR_API_URL: `${gate.url}/calendar/v3`, EVENTS_SAVED_COPY_PATH: savedCopyPath };
    try {
      const before = await startServer(env);
      let good: EventsResponse;
      try {
        good = JSON.parse((await rawRequest(before.url, "/api/calendar/events")).body) as EventsResponse;
        expect(good.events.map((event) => event.id)).toEqual(LISTED_EVENT_IDS);
        await expect.poll(() => existsSync(savedCopyPath), { timeout: UNTIL_MS }).toBe(true);
      } finally {
        await before.stop();
      }

      fake.setScenario("error500");
      gate.shut();
      const after = await startServer(env);
      try {
        // Restored before listening (or just after, on a slow machine); the first read is held at the gate.
        await expect.poll(async () => (await readiness(after)).events.state, { timeout: UNTIL_MS }).toBe("restored");
        const api = await rawRequest(after.url, "/api/calendar/events");
        expect(api.status).toBe(200);
        const body = JSON.parse(api.body) as EventsResponse;
        expect(body).toMatchObject({ stale: true, events: good.events });
        expect(Date.parse(body.updatedAt ?? "")).toBeLessThan(suiteClock().now());
        const page = (await rawRequest(after.url, "/events")).body;
        expect(page).toContain(PAGE_STALE);
        for (const upcoming of ["next7", "retreat", "member90", "future200"]) expect(page).toContain(`/events/${upcoming}`);
        // The first read fails; the copy stays.
        gate.open();
        await expect.poll(async () => (await readiness(after)).events.state, { timeout: UNTIL_MS }).toBe("stale");
        expect(JSON.parse((await rawRequest(after.url, "/api/calendar/events")).body)).toMatchObject({ stale: true, events: good.events });
      } finally {
        await after.stop();
      }

      // Another calendar on the same path: the saved copy is not its own, so nothing is shown from it.
      const other = await startServer({ ...env, GOOGLE_CALENDAR_ID: "another@group.calendar.google.com" });
      try {
        expect((await rawRequest(other.url, "/api/calendar/events")).status).toBe(502);
        expect(other.output()).toContain("holds another calendar: ignored");
      } finally {
        await other.stop();
      }
    } finally {
      await gate.close();
    }
  });
});

describe("two servers on one calendar", () => {
  // Two servers start, and each draws every event's share card: seconds on a quiet machine.
  it("answer the same bytes and ETags for every events answer, though they read it at different times", { timeout: 120_000 }, async () => {
    fake.reset();
    fake.setScenario("normal");
    const one = await startServer(fake.env);
    const two = await startServer(fake.env);
    try {
      const first = await rawRequest(one.url, "/api/calendar/events");
      const { events } = JSON.parse(first.body) as EventsResponse;
      // The second reads after the first has answered: its read is later.
      expect((await rawRequest(two.url, "/api/calendar/events")).body).toBe(first.body);
      const paths = [
        "/events",
        "/events?tab=past",
        "/api/calendar/events",
        "/sitemap.xml",
        ...[...new Set(events.map((event) => monthPagePath(monthKeyOf(event))))],
        ...events.flatMap((event) => [`/events/${event.id}`, `/events/${event.id}/og.png`, `/api/calendar/events/${event.id}.ics`]),
      ];
      for (const target of paths) {
        const [a, b] = [await rawRequest(one.url, target), await rawRequest(two.url, target)];
        expect(a.status, target).toBe(200);
        expect(b.headers.etag, target).toBe(a.headers.etag);
      }
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});

describe("a feed written with a byte-order mark and blank lines before BEGIN:VCALENDAR, and a corrupt saved copy", () => {
  let feed: FakeIcsFeed;
  let server: RunningServer;
  beforeAll(async () => {
    const day = new Date(suiteClock().now() + 7 * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
    const text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", "BEGIN:VEVENT", "UID:lead@t", "SUMMARY:Leading whitespace"];
    text.push(`DTSTART;VALUE=DATE:${day}`, "END:VEVENT", "END:VCALENDAR");
    feed = await startFakeIcsFeed({ "lead.ics": `\uFEFF\r\n  \r\n${text.join("\r\n")}\r\n` });
    const savedCopyPath = path.join(directory, "corrupt.json");
    writeFileSync(savedCopyPath, '{"format":1,"source":"x","events":[{"id"');
    server = await startServer({
      ...fake.env,
      ...icsSource(feed.urlOf("lead.ics")),
      EVENTS_SAVED_COPY_PATH: savedCopyPath,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await feed?.close();
  });

  it("is read", async () => {
    const api = await rawRequest(server.url, "/api/calendar/events");
    expect(api.status).toBe(200);
    expect((JSON.parse(api.body) as EventsResponse).events.map((event) => event.summary)).toEqual(["Leading whitespace"]);
  });

  it("starts cleanly on the corrupt saved copy, with one warning", async () => {
    expect((await rawRequest(server.url, "/api/calendar/events")).status).toBe(200);
    expect(server.output().match(/the saved copy .* is not JSON: ignored/g)).toHaveLength(1);
  });
});

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
import { startFakeIcsFeed } from "../fakes/ics-feed";
import { rawRequest } from "../support/raw-http";
import { startServer, type RunningServer } from "../support/start-server";

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
    const server = await startServer({ ...fake.env, LOG_LEVEL: "info" });
    try {
      // The first read: both halves of the window, each tried twice.
      expect((await rawRequest(server.url, "/api/calendar/events")).status).toBe(502);
      const afterFirst = fake.requestCount();
      expect(afterFirst).toBeLessThanOrEqual(4);
      const { events } = await readiness(server);
      expect(events).toMatchObject({ state: "failing", consecutiveFailures: 1 });
      const nextAttemptAt = Date.parse(events.nextAttemptAt ?? "");
      expect(nextAttemptAt - Date.parse(events.lastFailureAt ?? "")).toBeGreaterThanOrEqual(5_000);

      // Visitors keep coming before the backoff ends: no new read.
      const paths = ["/events", "/api/calendar/events", "/events?tab=past", "/sitemap.xml"];
      for (let i = 0; i < 60 && Date.now() < nextAttemptAt - 500; i++) {
        const answer = await rawRequest(server.url, paths[i % paths.length]!);
        expect(answer.status).toBe(paths[i % paths.length] === "/api/calendar/events" ? 502 : 200);
      }
      expect(Date.now()).toBeLessThan(nextAttemptAt);
      expect(fake.requestCount()).toBe(afterFirst);
      expect((await rawRequest(server.url, "/events")).body).toContain("Failed to load events from calendar.");
    } finally {
      await server.stop();
    }
  });
});

describe("a restart during an outage", () => {
  it("serves the last good read from the saved copy, stale with its time, and never another calendar's", async () => {
    fake.reset();
    fake.setScenario("normal");
    const snapshotPath = path.join(directory, "restart", "events.json");
    const env = { ...fake.env, EVENTS_SNAPSHOT_PATH: snapshotPath };
    const before = await startServer(env);
    let good: EventsResponse;
    try {
      good = JSON.parse((await rawRequest(before.url, "/api/calendar/events")).body) as EventsResponse;
      expect(good.events.map((event) => event.id)).toEqual(LISTED_EVENT_IDS);
      await expect.poll(() => existsSync(snapshotPath)).toBe(true);
    } finally {
      await before.stop();
    }

    fake.setScenario("error500");
    const after = await startServer(env);
    try {
      expect((await readiness(after)).events.state).toBe("restored");
      const api = await rawRequest(after.url, "/api/calendar/events");
      expect(api.status).toBe(200);
      const body = JSON.parse(api.body) as EventsResponse;
      expect(body).toMatchObject({ stale: true, events: good.events });
      expect(Date.parse(body.updatedAt ?? "")).toBeLessThan(Date.now());
      const page = (await rawRequest(after.url, "/events")).body;
      expect(page).toContain(PAGE_STALE);
      for (const upcoming of ["next7", "retreat", "member90", "future200"]) expect(page).toContain(`/events/${upcoming}`);
      // The first read fails; the copy stays.
      await expect.poll(async () => (await readiness(after)).events.state).toBe("stale");
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
  });

  it("starts cleanly on a corrupt saved copy, with one warning", async () => {
    fake.setScenario("normal");
    const snapshotPath = path.join(directory, "corrupt.json");
    writeFileSync(snapshotPath, '{"format":1,"source":"x","events":[{"id"');
    const server = await startServer({ ...fake.env, EVENTS_SNAPSHOT_PATH: snapshotPath });
    try {
      expect((await rawRequest(server.url, "/api/calendar/events")).status).toBe(200);
      expect(server.output().match(/the saved copy .* is not JSON: ignored/g)).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});

describe("two servers on one calendar", () => {
  it("answer the same bytes and ETags for every events answer, though they read it at different times", async () => {
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

describe("a feed written with a byte-order mark and blank lines before BEGIN:VCALENDAR", () => {
  it("is read", async () => {
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
    const text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", "BEGIN:VEVENT", "UID:lead@t", "SUMMARY:Leading whitespace"];
    text.push(`DTSTART;VALUE=DATE:${day}`, "END:VEVENT", "END:VCALENDAR");
    const feed = await startFakeIcsFeed({ "lead.ics": `\uFEFF\r\n  \r\n${text.join("\r\n")}\r\n` });
    const server = await startServer({ ...fake.env, GOOGLE_CALENDAR_ID: "", GOOGLE_API_KEY: "", CALENDAR_ICS_URL: feed.urlOf("lead.ics") });
    try {
      const api = await rawRequest(server.url, "/api/calendar/events");
      expect(api.status).toBe(200);
      expect((JSON.parse(api.body) as EventsResponse).events.map((event) => event.summary)).toEqual(["Leading whitespace"]);
    } finally {
      await server.stop();
      await feed.close();
    }
  });
});

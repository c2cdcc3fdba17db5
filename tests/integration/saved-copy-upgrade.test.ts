// An upgrade during a calendar outage: the previous version left its saved copy on disk in its own
// format (2, written here by that version's writer, tests/fixtures/saved-copy-format-2.ts); this
// version, started with Google down, restores it and lists its events, as last updated, on the API,
// the events page (both tabs) and the event's own page.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceDigest } from "~/events/server/saved-copy.server";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { format2Events, saveFormat2 } from "../fixtures/saved-copy-format-2";
import { startServer, type RunningServer } from "../support/start-server";

const HOUR = 3_600_000;

let google: FakeGoogleCalendar;
let server: RunningServer;
let dir: string;
const events = format2Events(Date.now());

beforeAll(async () => {
  google = await startFakeGoogleCalendar();
  // Down before the upgraded server starts, and all the while.
  google.setScenario("error500");
  dir = mkdtempSync(path.join(tmpdir(), "fc-upgrade-"));
  const file = path.join(dir, "events.json");
  // The calendar's identity as both versions tag their copy with it (kind, API base, calendar id).
  const source = sourceDigest(`google\n${google.url}\n${google.calendarId}`);
  await saveFormat2(file, source, { events, fetchedAt: Date.now() - 2 * HOUR });
  server = await startServer({ ...google.env, EVENTS_SNAPSHOT_PATH: file });
});

afterAll(async () => {
  await server?.stop();
  await google?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a format-2 saved copy, the calendar down, after an upgrade", () => {
  it("the API lists its events, marked as last updated when that version read them", async () => {
    const res = await fetch(`${server.url}/api/calendar/events`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { events: { id: string }[]; stale: boolean; updatedAt?: string };
    expect(body.events.map((event) => event.id)).toEqual(["f2past", "f2demo", "f2retreat"]);
    expect(body.stale).toBe(true);
    expect(body.updatedAt).toBeDefined();
    // Google was asked, and is down.
    expect(google.requestCount()).toBeGreaterThan(0);
  });

  it("the events page lists the upcoming ones and, on its past tab, the past one; the event's page has its link", async () => {
    const upcoming = await (await fetch(`${server.url}/events`)).text();
    expect(upcoming).toContain("Demo night, members only");
    expect(upcoming).toContain("Autumn retreat");
    const past = await (await fetch(`${server.url}/events?tab=past`)).text();
    expect(past).toMatch(/Spring founders(’|'|&#x27;|&#39;)? dinner/);
    const page = await fetch(`${server.url}/events/f2demo`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("https://meet.example.org/demo");
  });

  it("logs no refusal of the copy", async () => {
    await server.logCaughtUp();
    expect(server.output()).not.toContain("of another format");
    expect(server.output()).not.toMatch(/saved copy .* ignored/);
  });
});

// A read of the calendar through the real server (issue 28): the work happens in the calendar
// worker, an unchanged calendar renders nothing again, a changed one has its answers prepared before
// any visitor asks, and what follows a read (the saved copy) never turns a good read into a failure.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateGoogleEvents, startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { suiteClock } from "../support/clock";
import { rawRequest } from "../support/raw-http";
import { NO_SOURCE } from "../support/environments";
import { jsonLines, startServer, type RunningServer, renderedUrls } from "../support/start-server";
import { FAST_TIMINGS, UNTIL_MS } from "../support/timings";

type Readiness = { events: { state: string; lastSuccessAt: string | null; consecutiveFailures: number } };
const readiness = async (server: RunningServer) => JSON.parse((await rawRequest(server.url, "/readyz")).body) as Readiness;
/** The reads that found the calendar as the last one left it, and stopped there (the events cache's debug line). */
const unchangedReads = (server: RunningServer) =>
  jsonLines<{ msg?: string }>(server).filter(
    (line) => line.msg === "[events] the calendar is unchanged since the last read: nothing converted",
  ).length;

describe("reads of a calendar as Google sends it", () => {
  let fake: FakeGoogleCalendar;
  let server: RunningServer;
  let directory: string;
  const now = suiteClock().now();

  beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
    fake.setEvents(generateGoogleEvents({ count: 600, now }));
    directory = mkdtempSync(path.join(tmpdir(), "calendar-reads-"));
    // A saved copy that cannot be written: a file where its folder should be.
    writeFileSync(path.join(directory, "not-a-folder"), "");
    server = await startServer(
      {
        ...NO_SOURCE,
        ...fake.env,
        EVENTS_SAVED_COPY_PATH: path.join(directory, "not-a-folder", "events.json"),
        LOG_LEVEL: "debug",
      },
      // A copy is fresh for 200 ms: a visitor's request after that starts a read.
      { timings: FAST_TIMINGS },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("prepares the events answers after the first read, before any visitor asks for them", async () => {
    await expect
      .poll(() => renderedUrls(server), { timeout: UNTIL_MS })
      .toEqual(expect.arrayContaining(["/api/calendar/events", "/events"]));
    const api = await rawRequest(server.url, "/api/calendar/events", { headers: { "Accept-Encoding": "br" } });
    expect(api.status).toBe(200);
    expect(api.headers["content-encoding"]).toBe("br");
    await server.logCaughtUp();
    expect(renderedUrls(server).filter((url) => url === "/api/calendar/events")).toHaveLength(1);
  });

  it("re-reads an unchanged calendar without converting or rendering anything again", async () => {
    await server.logCaughtUp();
    const before = renderedUrls(server).length;
    const unchanged = unchangedReads(server);
    // Each answer after the copy's 200 ms starts a refresh; wait for three that found the calendar
    // unchanged and stopped before converting it (the responseHash: of what Google sent, not of the events).
    await expect
      .poll(
        async () => {
          await rawRequest(server.url, "/api/calendar/events");
          return unchangedReads(server);
        },
        { timeout: UNTIL_MS, interval: 100 },
      )
      .toBeGreaterThanOrEqual(unchanged + 3);
    await server.logCaughtUp();
    expect(renderedUrls(server).length).toBe(before);
    expect((await readiness(server)).events).toMatchObject({ state: "fresh", consecutiveFailures: 0 });
  });

  it("prepares the answers again when the calendar changes", async () => {
    const before = renderedUrls(server).length;
    fake.setEvents(generateGoogleEvents({ count: 601, now }));
    // A visitor's request after the copy's 200 ms starts the read (and is answered the copy it has).
    await expect
      .poll(
        async () => {
          await rawRequest(server.url, "/api/calendar/events");
          return renderedUrls(server).slice(before);
        },
        { timeout: UNTIL_MS, interval: 100 },
      )
      .toEqual(expect.arrayContaining(["/api/calendar/events", "/events"]));
    const api = await rawRequest(server.url, "/api/calendar/events");
    expect((JSON.parse(api.body) as { events: unknown[] }).events).toHaveLength(601);
  });

  it("counts a read as good when its saved copy cannot be written, and says so once", async () => {
    expect((await readiness(server)).events).toMatchObject({ state: "fresh", consecutiveFailures: 0 });
    const lines = server.output().match(/writing the saved copy failed/g) ?? [];
    expect(lines).toHaveLength(1);
    expect(server.output()).not.toContain("refresh failed");
  });

  it("answers the API with one form of each description: sanitized HTML, no text or link copies", async () => {
    const { events } = JSON.parse((await rawRequest(server.url, "/api/calendar/events")).body) as { events: Record<string, unknown>[] };
    expect(events.some((event) => typeof event.description === "string")).toBe(true);
    for (const event of events) {
      expect(Object.keys(event).every((key) => ["id", "summary", "description", "location", "start", "end", "updated"].includes(key))).toBe(
        true,
      );
    }
  });

  // Last: it makes the calendar fail for a while.
  it("prepares the answers when the copy turns stale, and again when the calendar answers with the same events", async () => {
    // The cache waits 5 s (and up to a fifth more) after a failed read before the next: the recovery's time.
    const eventsPages = () => renderedUrls(server).filter((url) => url === "/events" || url === "/events?tab=past").length;
    const until = async (state: string) =>
      expect
        .poll(
          async () => {
            await rawRequest(server.url, "/api/calendar/events");
            return (await readiness(server)).events.state;
          },
          // A read and its retries after each request: about 1 s; the limit is how long a broken one takes to fail.
          { timeout: 15_000, interval: 300 },
        )
        .toBe(state);
    const fresh = eventsPages();
    fake.setScenario("error500");
    await until("stale");
    // No visitor asked for /events: the stale version's list and past tab were made for them.
    // Two renders after the read, milliseconds each: the limit only ends a test whose preparer never ran.
    await expect.poll(eventsPages, { timeout: 10_000 }).toBe(fresh + 2);
    fake.setScenario("normal");
    await until("fresh");
    await expect.poll(eventsPages, { timeout: 10_000 }).toBe(fresh + 4);
    // The first visitor gets it from the store.
    const before = renderedUrls(server).length;
    expect((await rawRequest(server.url, "/events")).status).toBe(200);
    await server.logCaughtUp();
    expect(renderedUrls(server).length).toBe(before);
    // Its two waits for a state (15 s each at most) and two for the renders.
  }, 40_000);
});

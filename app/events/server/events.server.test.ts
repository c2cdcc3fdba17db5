import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OLD_SAVED_COPY_DEFAULT_PATH, parseEnv, SAVED_COPY_DEFAULT_PATH } from "~/env.server";
import type { CalendarEvent } from "~/events/model";
import { scrubberFor } from "~/logger.server";
import { createEventsService, fileToRestore, sourceFromEnv } from "./events.server";
import { sortEvents } from "./read-calendar.server";
import { startInstant } from "./time.server";

describe("sourceFromEnv", () => {
  it("chooses Google, then the .ics feed, then the bundled sample", () => {
    const google = sourceFromEnv(parseEnv({ GOOGLE_CALENDAR_ID: "team@group.calendar.google.com", GOOGLE_API_KEY: "k" }));
    expect(google.kind).toBe("google");
    expect(google.subscribeUrl).toBe("https://calendar.google.com/calendar/ical/team%40group.calendar.google.com/public/basic.ics");
    const ics = sourceFromEnv(parseEnv({ CALENDAR_ICS_URL: "webcal://example.org/feed.ics" }));
    expect(ics).toMatchObject({ kind: "ics", subscribeUrl: "webcal://example.org/feed.ics" });
    expect(sourceFromEnv(parseEnv({}))).toMatchObject({ kind: "sample", subscribeUrl: "/api/calendar/feed.ics" });
  });
});

describe("sortEvents", () => {
  it("orders by start (all-day at New York midnight), then end, then id, and drops duplicate ids", () => {
    const events: CalendarEvent[] = [
      { id: "late", start: { dateTime: "2026-03-04T23:30:00-05:00" } },
      { id: "allday", start: { date: "2026-03-04" }, end: { date: "2026-03-05" } },
      { id: "b", start: { dateTime: "2026-03-04T09:00:00-05:00" }, end: { dateTime: "2026-03-04T10:00:00-05:00" } },
      { id: "a", start: { dateTime: "2026-03-04T14:00:00Z" }, end: { dateTime: "2026-03-04T10:00:00-05:00" } },
      { id: "tbd" },
      { id: "early", start: { dateTime: "2026-03-04T00:30:00-05:00" } },
      { id: "b", summary: "duplicate" },
    ];
    expect(sortEvents(events).map((e) => e.id)).toEqual(["allday", "early", "a", "b", "late", "tbd"]);
  });
});

describe("the bundled sample", () => {
  it.each(["2026-11-21T12:00:00Z", "2031-02-01T12:00:00Z", "2024-06-01T12:00:00Z"])(
    "has past and upcoming events of every kind on %s",
    async (today) => {
      const now = Date.parse(today);
      const env = parseEnv({});
      const { getEvents } = createEventsService(env, { clock: { now: () => now }, scrub: scrubberFor(env) });
      const { response: answer } = await getEvents();
      expect(answer).toMatchObject({ stale: false, subscribeUrl: "/api/calendar/feed.ics" });
      // A fresh answer does not say when it was read: it is the same on every server.
      expect(answer).not.toHaveProperty("updatedAt");
      const starts = answer.events.map((e) => startInstant(e.start));
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      const past = answer.events.filter((e) => startInstant(e.start) < now);
      const upcoming = answer.events.filter((e) => startInstant(e.start) >= now);
      for (const list of [past, upcoming]) {
        expect(list.some((e) => /member/i.test(e.summary ?? ""))).toBe(true);
        expect(list.some((e) => e.start && "date" in e.start)).toBe(true);
        expect(list.some((e) => e.start && "dateTime" in e.start && /-0[45]:00$/.test(e.start.dateTime))).toBe(true);
      }
      // A multi-day all-day event, and HTML that survived sanitizing.
      expect(
        answer.events.some(
          (e) => e.start && "date" in e.start && e.end && "date" in e.end && Date.parse(e.end.date) - Date.parse(e.start.date) > 86_400_000,
        ),
      ).toBe(true);
      expect(answer.events.some((e) => e.description?.includes("<ul>") && e.description.includes('rel="noopener noreferrer"'))).toBe(true);
    },
  );
});

describe("events service status and incident logging", () => {
  it("reports the source and state, and logs an upstream outage once with its details", async () => {
    let now = Date.parse("2026-03-01T12:00:00Z");
    let status = 200;
    const upstreamLines: string[] = [];
    const lines: string[] = [];
    const service = createEventsService(
      parseEnv({
        CALENDAR_ICS_URL: "https://calendar.example.org/feed.ics",
        EVENTS_CACHE_TTL_SECONDS: "60",
        EVENTS_SAVED_COPY_PATH: "off",
      }),
      {
        clock: { now: () => now },
        // The read runs in this process (the test's upstream): no worker, no stderr of one.
        scrub: (text) => text,
        upstream: {
          timeoutMs: 1_000,
          retries: 1,
          backoffMs: () => 0,
          sleep: async () => {},
          fetch: async () => new Response(status === 200 ? "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" : "down", { status }),
          log: (message) => void upstreamLines.push(message),
        },
        log: {
          warn: (m) => void lines.push(`warn ${m}`),
          info: (m) => void lines.push(`info ${m}`),
          debug: (m) => void lines.push(`debug ${m}`),
        },
      },
    );
    expect(service.status()).toMatchObject({ source: "ics", state: "cold" });
    await service.getEvents();
    expect(service.status()).toMatchObject({ source: "ics", state: "fresh", lastSuccessAt: now, consecutiveFailures: 0 });

    // Two failed reads of one outage: the first one's attempts reach the upstream log, the second's go to debug.
    status = 503;
    for (let failures = 1; failures <= 2; failures++) {
      now += 61_000;
      await service.getEvents();
      // The copy may be answered before the read behind it has failed.
      await expect.poll(() => service.status().consecutiveFailures).toBe(failures);
    }
    expect(service.status()).toMatchObject({ state: "stale", lastFailureAt: now, consecutiveFailures: 2 });
    expect(upstreamLines).toHaveLength(2);
    expect(upstreamLines[0]).toContain("answered HTTP 503 (attempt 1 of 2, retrying)");
    expect(lines.filter((l) => l.startsWith("warn"))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith("debug"))).toHaveLength(3);
  });
});

describe("fileToRestore: an upgrade keeps the saved copy in the previous versions' default file", () => {
  let cwd: string;
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));
  const put = (file: string) => {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    writeFileSync(path.join(cwd, file), "{}");
  };
  const restored = (setting: string) => {
    const lines: string[] = [];
    const file = path.resolve(cwd, setting);
    const from = fileToRestore(file, setting, { info: (line) => void lines.push(line) }, cwd);
    return { from: path.relative(cwd, from), lines };
  };

  it("reads the old default file while only it exists and the default is in use; the new one once it exists", () => {
    cwd = mkdtempSync(path.join(tmpdir(), "fc-restore-"));
    expect(restored(SAVED_COPY_DEFAULT_PATH)).toEqual({ from: SAVED_COPY_DEFAULT_PATH, lines: [] });
    put(OLD_SAVED_COPY_DEFAULT_PATH);
    const old = restored(SAVED_COPY_DEFAULT_PATH);
    expect(old.from).toBe(OLD_SAVED_COPY_DEFAULT_PATH);
    expect(old.lines).toEqual([expect.stringContaining(`restoring the saved copy from ${OLD_SAVED_COPY_DEFAULT_PATH}`)]);
    put(SAVED_COPY_DEFAULT_PATH);
    expect(restored(SAVED_COPY_DEFAULT_PATH)).toEqual({ from: SAVED_COPY_DEFAULT_PATH, lines: [] });
  });

  it("reads only the file an operator named", () => {
    cwd = mkdtempSync(path.join(tmpdir(), "fc-restore-"));
    put(OLD_SAVED_COPY_DEFAULT_PATH);
    expect(restored("data/events.json").from).toBe("data/events.json");
  });
});

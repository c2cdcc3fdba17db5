// An upgrade during a calendar outage: the previous version left its saved copy on disk in its own
// format (2, written here by that version's own writer, digest and description reading, copied
// verbatim from it: tests/fixtures/saved-copy-format-2.ts, nothing of today's code) where it kept it:
// its default file (.data/events-snapshot.json, before the default became
// .data/events-saved-copy.json), or the file its operator named with the variable's old name
// (EVENTS_SNAPSHOT_PATH, now EVENTS_SAVED_COPY_PATH). This version, started with Google down,
// restores it and lists its events, as last updated, on the API, the events page (both tabs) and the
// event's own page. Were today's calendarIdentityHash (its input or its algorithm) or reader to change
// so that such a copy no longer matched, the events would be gone here, as after a real upgrade.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OLD_SAVED_COPY_DEFAULT_PATH } from "~/env.server";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { format2Events, saveFormat2 } from "../fixtures/saved-copy-format-2";
import { suiteClock } from "../support/clock";
import { startServer, type RunningServer } from "../support/start-server";

const HOUR = 3_600_000;

type LogLine = { level?: string; msg?: string };
const logLines = (output: string): LogLine[] =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);

/**
 * Where the previous version left its copy, the server's environment and working directory that find it
 * there, and a line the server logs on the way: the start's one warning for the variable's old name, or
 * where the copy was restored from.
 */
type Upgrade = { file: string; env: Record<string, string>; cwd?: string; logged: RegExp };

const UPGRADES: [string, (dir: string) => Upgrade][] = [
  [
    "from the previous default file",
    (dir) => {
      // A working directory of the server's own (the default file is relative to it), holding the build.
      for (const entry of ["server.js", "package.json", "build"]) symlinkSync(path.resolve(entry), path.join(dir, entry));
      // "": unset, as an operator who never named the file left it (the test helper names one otherwise).
      return {
        file: path.join(dir, OLD_SAVED_COPY_DEFAULT_PATH),
        env: { EVENTS_SAVED_COPY_PATH: "" },
        cwd: dir,
        logged: /restoring the saved copy from \.data\/events-snapshot\.json/,
      };
    },
  ],
  [
    "named with the variable's old name",
    (dir) => {
      const file = path.join(dir, "kept", "events.json");
      return {
        file,
        env: { EVENTS_SNAPSHOT_PATH: file },
        logged: /^WARNING: EVENTS_SNAPSHOT_PATH is an old name: rename it EVENTS_SAVED_COPY_PATH/,
      };
    },
  ],
];

describe.each(UPGRADES)("a format-2 saved copy %s, the calendar down, after an upgrade", (_way, upgrade) => {
  let google: FakeGoogleCalendar;
  let logged: RegExp;
  let server: RunningServer;
  let dir: string;
  // Around the server's now: it runs at the run's clock.
  const events = format2Events(suiteClock().now());

  beforeAll(async () => {
    google = await startFakeGoogleCalendar();
    // Down before the upgraded server starts, and all the while.
    google.setScenario("error500");
    dir = mkdtempSync(path.join(tmpdir(), "fc-upgrade-"));
    const { file, env, cwd, ...expected } = upgrade(dir);
    logged = expected.logged;
    mkdirSync(path.dirname(file), { recursive: true });
    // As that version, reading the same calendar, wrote it.
    await saveFormat2(file, google.env, { events, fetchedAt: suiteClock().now() - 2 * HOUR });
    const written = JSON.parse(readFileSync(file, "utf8")) as { format: number; events: { descriptionText?: string }[] };
    expect(written.format).toBe(2);
    expect(written.events.map((event) => event.descriptionText)).toEqual([undefined, "Bring a laptop. Join online", "Two days upstate."]);
    server = await startServer({ ...google.env, ...env }, { cwd });
  });

  afterAll(async () => {
    await server?.stop();
    await google?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the API lists its events, marked as last updated when that version read them", async () => {
    const res = await fetch(`${server.url}/api/calendar/events`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { events: { id: string }[]; stale: boolean; updatedAt?: string };
    expect(body.events.map((event) => event.id)).toEqual(["f2past", "f2demo", "f2retreat"]);
    expect(body.stale).toBe(true);
    expect(body.updatedAt).toBeDefined();
    // Google is asked, and is down: the server's first read starts at boot, and may reach the fake only after
    // this answer (from the restored copy) on a busy machine.
    await expect.poll(() => google.requestCount(), { timeout: 30_000, message: "the server asked Google within 30 s" }).toBeGreaterThan(0);
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

  it("logs no refusal of the copy; where it came from, or one warning naming the variable's new name", async () => {
    await server.logCaughtUp();
    expect(server.output()).not.toContain("of another format");
    expect(server.output()).not.toMatch(/saved copy .* ignored/);
    const lines = logLines(server.output());
    expect(lines.filter((line) => logged.test(line.msg ?? ""))).toHaveLength(1);
    // No other warning about the variable (a production server without SITE_URL has its own, apart).
    expect(lines.filter((line) => line.level === "warn" && line.msg?.includes("EVENTS_") && !logged.test(line.msg))).toEqual([]);
  });
});

// Share cards through the built server (issue 20), from a calendar of awkward events: titles that
// are one long word, URLs, and titles in Hebrew, Arabic, Devanagari, Chinese, Japanese, Korean,
// Greek, Cyrillic and emoji. Cards are drawn in the drawing worker, the upcoming ones ahead of any
// request, and every character has a font.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventsResponse } from "~/events/model";
import { startFakeIcsFeed, type FakeIcsFeed } from "../fakes/ics-feed";
import { suiteClock } from "../support/clock";
import { icsSource } from "../support/environments";
import { isUpcoming } from "../support/event-time";
import { rawRequest } from "../support/raw-http";
import { jsonLines, startServer, type RunningServer } from "../support/start-server";
import { FAST_TIMINGS, UNTIL_MS } from "../support/timings";
import { waitUntil } from "../support/wait";

const FIXTURE = "awkward-events.ics";

type LogLine = { msg?: string; ahead?: boolean; workerPid?: number; cards?: number; level?: string };

const logLines = (server: RunningServer) => jsonLines<LogLine>(server);

const until = (condition: () => boolean, what: string) => expect.poll(condition, { timeout: UNTIL_MS, message: what }).toBe(true);

describe("share cards of a calendar of long words, URLs and many scripts", () => {
  let feed: FakeIcsFeed;
  let server: RunningServer;
  let events: EventsResponse["events"];

  beforeAll(async () => {
    feed = await startFakeIcsFeed([FIXTURE]);
    server = await startServer(
      {
        ...icsSource(feed.urlOf(FIXTURE)),
        SITE_URL: "https://founders.example.org",
        SHARE_CARDS_AHEAD: "30",
        LOG_LEVEL: "debug",
      },
      // The drawing worker ends 1 s after its last card (15 s in production): the last test sees it go.
      { timings: { shareCardWorkerIdleMs: FAST_TIMINGS.shareCardWorkerIdleMs } },
    );
    // The first read of the calendar queues the upcoming events' cards.
    events = ((await (await fetch(`${server.url}/api/calendar/events`)).json()) as EventsResponse).events;
    // Thirteen cards (the worker's first, one per upcoming event): a few seconds on a quiet machine.
    // Not until: expect.poll runs only inside a test.
    await waitUntil(() => logLines(server).some((line) => line.msg === "drew share cards ahead"), {
      timeoutMs: 60_000,
      message: "timed out waiting for the cards drawn ahead",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await feed?.close();
  });

  // As the site means it (not yet ended), at the server's now: the events it draws ahead.
  const upcoming = () => events.filter((event) => isUpcoming(event, suiteClock().now()));

  it("draws the upcoming events' cards in the drawing worker (not the server's process) before anyone asks, and serves them without drawing", async () => {
    const drawnAhead = logLines(server).filter((line) => line.msg === "drew a share card" && line.ahead);
    // The worker's warm-up card, then one per upcoming event (twelve titles, each once a year).
    expect(drawnAhead.length).toBeGreaterThanOrEqual(upcoming().length);
    for (const line of drawnAhead) expect([undefined, server.pid]).not.toContain(line.workerPid);
    const before = logLines(server).filter((line) => line.msg === "drew a share card").length;
    for (const event of upcoming()) {
      const card = await rawRequest(server.url, `/events/${event.id}/og.png`);
      expect(card.status, event.summary).toBe(200);
      expect(card.headers["content-type"]).toBe("image/png");
      expect([card.bytes.readUInt32BE(16), card.bytes.readUInt32BE(20)]).toEqual([1200, 630]);
    }
    expect(logLines(server).filter((line) => line.msg === "drew a share card")).toHaveLength(before);
  });

  it("draws a card nobody drew ahead (a past event's) on request, in the worker", async () => {
    const past = events.find((event) => !upcoming().includes(event))!;
    const card = await rawRequest(server.url, `/events/${past.id}/og.png`);
    expect(card.status).toBe(200);
    const onRequest = logLines(server).filter((line) => line.msg === "drew a share card" && line.ahead === false);
    expect(onRequest.length).toBeGreaterThan(0);
    expect(onRequest.every((line) => line.workerPid !== undefined && line.workerPid !== server.pid)).toBe(true);
  });

  it("finds a font for every character of every card: no box drawn, nothing logged above info", () => {
    const lines = logLines(server);
    expect(lines.filter((line) => line.msg === "a share card has characters no font draws")).toEqual([]);
    expect(lines.filter((line) => line.level === "warn" || line.level === "error")).toEqual([]);
    expect(server.stderr()).toBe("");
  });

  it("gives different events different cards and the same event the same bytes", async () => {
    const [first, second] = upcoming();
    const a = await rawRequest(server.url, `/events/${first!.id}/og.png`);
    const b = await rawRequest(server.url, `/events/${second!.id}/og.png`);
    const again = await rawRequest(server.url, `/events/${first!.id}/og.png`);
    expect(a.bytes.equals(b.bytes)).toBe(false);
    expect(again.bytes.equals(a.bytes)).toBe(true);
  });

  it("ends the drawing worker when it has drawn nothing for a while, and draws the next card in a fresh one", async () => {
    // The idle time after the last card: the wait is for every worker's own line saying it ends.
    const startedLines = () => logLines(server).filter((line) => line.msg === "share card worker started");
    const endingLines = () => logLines(server).filter((line) => line.msg === "share card worker ending");
    await until(() => endingLines().length === startedLines().length, "the workers to end");
    const ended = endingLines().map((line) => line.workerPid!);
    await until(() => ended.every((pid) => !existsSync(`/proc/${pid}`)), "the workers' processes to be gone");
    const before = startedLines().length;
    // A past event's card no test has asked for (the earlier one asked for the first).
    const past = events.filter((event) => !upcoming().includes(event)).at(-1)!;
    const card = await rawRequest(server.url, `/events/${past.id}/og.png`);
    expect(card.status).toBe(200);
    expect([card.bytes.readUInt32BE(16), card.bytes.readUInt32BE(20)]).toEqual([1200, 630]);
    await server.logCaughtUp();
    expect(startedLines()).toHaveLength(before + 1);
    expect(ended).not.toContain(startedLines().at(-1)?.workerPid);
    expect(logLines(server).filter((line) => line.level === "warn" || line.level === "error")).toEqual([]);
  });
});

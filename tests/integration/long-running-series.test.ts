// Issue 28, "every series shows": the built server reading a feed with five daily series running
// since 1990 beside a weekly dinner that starts this month. Walked from 1990, the old series used
// to spend the feed's steps and the dinner never appeared.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventsResponse } from "~/events/model";
import { instantOf } from "~/events/time";
import { startFakeIcsFeed, type FakeIcsFeed } from "../fakes/ics-feed";
import { dinnerStart, LONG_RUNNING_SERIES, longRunningSeriesFeed } from "../fixtures/long-running-series";
import { suiteClock } from "../support/clock";
import { NO_SOURCE } from "../support/environments";
import { calendarRead, startServer, type RunningServer } from "../support/start-server";

const DAY = 86_400_000;
// The server's now: it runs at the run's clock.
const now = new Date(suiteClock().now());

let feed: FakeIcsFeed;
let server: RunningServer;

beforeAll(async () => {
  feed = await startFakeIcsFeed({ "long-running.ics": longRunningSeriesFeed(now) });
  server = await startServer({ ...NO_SOURCE, CALENDAR_ICS_URL: feed.urlOf("long-running.ics") });
  // Expanding 36 years of daily series may outlast the API's own wait for a first read on a busy machine.
  await calendarRead(server.url);
});
afterAll(async () => {
  await server?.stop();
  await feed?.close();
});

describe("five daily series since 1990 beside a weekly series from this month", () => {
  it("lists all six, each with its occurrences across the window, and logs no cut", async () => {
    const response = await fetch(`${server.url}/api/calendar/events`);
    expect(response.status).toBe(200);
    const { events } = (await response.json()) as EventsResponse;
    const startsOf = (summary: string) =>
      events
        .filter((e) => e.summary === summary)
        .map((e) => instantOf(e.start))
        .sort((a, b) => a - b);

    const { dinner, ...daily } = LONG_RUNNING_SERIES;
    for (const series of Object.values(daily)) {
      const starts = startsOf(series.summary);
      // Every day (or weekday, or other day) of a window of 12 months back and 12 ahead.
      expect(starts.length, series.summary).toBeGreaterThan(340);
      expect(Math.abs(starts[0]! - (now.getTime() - 365 * DAY)), series.summary).toBeLessThan(4 * DAY);
      expect(Math.abs(now.getTime() + 365 * DAY - starts.at(-1)!), series.summary).toBeLessThan(4 * DAY);
    }
    const dinners = startsOf(dinner.summary);
    const first = events.find((e) => e.summary === dinner.summary)?.start;
    expect(first && "dateTime" in first ? first.dateTime.slice(0, 19) : first).toBe(
      `${new Date(dinnerStart(now)).toISOString().slice(0, 10)}T19:00:00`,
    );
    expect(dinners.length).toBeGreaterThanOrEqual(51);
    expect(dinners.slice(1).every((t, i) => Math.round((t - dinners[i]!) / DAY) === 7)).toBe(true);

    await server.logCaughtUp();
    expect(server.output()).not.toContain("too long to expand");
  });
});

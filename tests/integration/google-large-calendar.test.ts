// A community's calendar at its real size, as Google sends it (every field, rich descriptions,
// Meet rooms), through the built server over HTTP: 6,000 events are all listed; and when a page
// comes back over the 5 MB limit, the events already read are served and the log says what was cut.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventsResponse } from "~/events/model";
import { generateGoogleEvents, startFakeGoogleCalendar, type FakeGoogleCalendar, type GoogleEventResource } from "../fakes/google-calendar";
import { suiteClock } from "../support/clock";
import { rawRequest } from "../support/raw-http";
import { NO_SOURCE } from "../support/environments";
import { calendarRead, startServer, type RunningServer } from "../support/start-server";

let fake: FakeGoogleCalendar;
let calendar: GoogleEventResource[];
const servers: RunningServer[] = [];

beforeAll(async () => {
  fake = await startFakeGoogleCalendar();
  calendar = generateGoogleEvents({ count: 6_000, now: suiteClock().now(), calendarId: fake.calendarId });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await fake?.close();
});

async function serve(): Promise<RunningServer> {
  const server = await startServer({ ...NO_SOURCE, ...fake.env });
  servers.push(server);
  // The API's own wait for a first read (4 s) is shorter than a read of 6,000 events on a busy machine.
  await calendarRead(server.url);
  return server;
}
async function events(server: RunningServer): Promise<EventsResponse> {
  const answer = await rawRequest(server.url, "/api/calendar/events");
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as EventsResponse;
}

describe("6,000 events as Google sends them", () => {
  // A server started and 6,000 events read, sanitised and stored: about 10 s quiet, far more on a busy machine.
  it("the API lists all 6,000, read in compact pages of our fields, and the log says nothing was cut", { timeout: 120_000 }, async () => {
    fake.reset();
    fake.setEvents(calendar);
    const server = await serve();
    const body = await events(server);
    expect(body.events).toHaveLength(6_000);
    expect(new Set(body.events.map((event) => event.id))).toEqual(new Set(calendar.map((event) => event.id)));
    // Two parts of about 3,000 events: six or seven pages of 500 each.
    expect(fake.requestCount()).toBeGreaterThanOrEqual(12);
    expect(fake.requestCount()).toBeLessThanOrEqual(14);
    for (const request of fake.requests) {
      expect(request.query.get("prettyPrint")).toBe("false");
      expect(request.query.get("fields")).toBe("nextPageToken,items(id,status,summary,description,location,start,end,updated)");
      expect(request.query.get("maxResults")).toBe("500");
    }
    await server.logCaughtUp();
    expect(server.output()).not.toMatch(/left out|larger than|refused/);
  });

  it(
    "a page over the 5 MB limit: the events already read are served, and the log names the limit and the cut",
    // As the first: a server started and 1,000 events of 5 MB pages read.
    { timeout: 120_000 },
    async () => {
      fake.reset();
      fake.setEvents(calendar);
      fake.setScenario("oversizedAfterFirstPage");
      const server = await serve();
      const body = await events(server);
      // The first page of each part (500 upcoming, 500 past; an event running now is in both, listed once).
      expect(body.events.length).toBeGreaterThanOrEqual(999);
      expect(body.events.length).toBeLessThanOrEqual(1_000);
      const ids = new Set(calendar.map((event) => event.id));
      expect(body.events.every((event) => ids.has(event.id))).toBe(true);
      expect(body.stale).toBeFalsy();
      await server.logCaughtUp();
      const log = server.output();
      expect(log).toContain(
        "page 2 of the upcoming events is larger than the 5 MB limit for one answer: the latest upcoming events (from page 2 on) are left out; the 500 upcoming events of pages 1 to 1 are shown",
      );
      expect(log).toContain(
        "page 2 of the past events is larger than the 5 MB limit for one answer: the most recent past events (from page 2 on) are left out; the 500 past events of pages 1 to 1 are shown",
      );
      expect(log).not.toContain(fake.apiKey);
    },
  );
});

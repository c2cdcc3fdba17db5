// The built server reading an Exchange-style feed over HTTP: forms that used to make the whole
// calendar "unavailable" (502) are read, and the moved all-day occurrence appears once. The feed
// is written for the server's date (the run's clock), so its events stay inside its 24-month window.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventsResponse } from "~/events/model";
import { startFakeIcsFeed, type FakeIcsFeed } from "../fakes/ics-feed";
import { suiteClock } from "../support/clock";
import { NO_SOURCE } from "../support/environments";
import { startServer, type RunningServer } from "../support/start-server";

const DAY = 86_400_000;
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
// Whole UTC days: the weekly series starts four weeks back; its sixth occurrence (two weeks
// ahead) is moved to the next day.
const today = Math.floor(suiteClock().now() / DAY) * DAY;
const first = today - 28 * DAY;
const moved = first + 6 * 7 * DAY;

const FEED = [
  "BEGIN:VCALENDAR",
  "METHOD:PUBLISH",
  "PRODID:Microsoft Exchange Server 2010",
  "VERSION:2.0",
  "BEGIN:VEVENT",
  "UID:040000008200E00074C5B7101A82E008000000001122334455667788",
  "SUMMARY:Open day",
  `DTSTART;VALUE=DATE:${ymd(first)}`,
  `DTEND;VALUE=DATE:${ymd(first + DAY)}`,
  "RRULE:FREQ=WEEKLY;COUNT=10",
  "X-MICROSOFT-CDO-ALLDAYEVENT:TRUE",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:040000008200E00074C5B7101A82E008000000001122334455667788",
  `RECURRENCE-ID;TZID=W. Europe Standard Time:${ymd(moved)}T000000`,
  "SUMMARY:Open day (moved)",
  `DTSTART;VALUE=DATE:${ymd(moved + DAY)}`,
  `DTEND;VALUE=DATE:${ymd(moved + 2 * DAY)}`,
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:breakfast@founders.example",
  "SUMMARY:Breakfast in Berlin",
  `DTSTART;TZID="W. Europe Standard Time":${ymd(today + 3 * DAY)}T090000`,
  `DTEND;TZID="W. Europe Standard Time":${ymd(today + 3 * DAY)}T100000`,
  "RRULE:FREQ=DAILY;COUNT=3",
  `EXDATE:${ymd(today + 4 * DAY)}`,
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:reunion@founders.example",
  "SUMMARY:Alumni reunion",
  "DTSTART;VALUE=DATE:Next Year",
  "END:VEVENT",
  "END:VCALENDAR",
].join("\r\n");

let feed: FakeIcsFeed;
let server: RunningServer;

beforeAll(async () => {
  feed = await startFakeIcsFeed({ "exchange.ics": FEED });
  server = await startServer({ ...NO_SOURCE, CALENDAR_ICS_URL: feed.urlOf("exchange.ics") });
});
afterAll(async () => {
  await server?.stop();
  await feed?.close();
});

describe("an Exchange feed with Windows zones, a moved all-day occurrence and one start that is not a date", () => {
  it("is answered (200), every form read as meant", async () => {
    const response = await fetch(`${server.url}/api/calendar/events`);
    expect(response.status).toBe(200);
    const { events } = (await response.json()) as EventsResponse;
    const days = (title: string) =>
      events.filter((e) => e.summary === title).map((e) => (e.start && "date" in e.start ? e.start.date : e.start?.dateTime));

    const series = Array.from({ length: 10 }, (_, i) => iso(first + i * 7 * DAY)).filter((d) => d !== iso(moved));
    expect(days("Open day")).toEqual(series);
    expect(days("Open day (moved)")).toEqual([iso(moved + DAY)]);
    expect(days("Breakfast in Berlin")).toHaveLength(2); // three days, the middle one an EXDATE written as a date
    expect(events.find((e) => e.summary === "Breakfast in Berlin")?.start).toMatchObject({ timeZone: "Europe/Berlin" });
    expect(days("Alumni reunion")).toEqual(["Next Year"]);
    expect(server.output()).toContain('UID \\"reunion@founders.example\\" (DTSTART left out)');
  });

  it("shows the raw start on the page", async () => {
    const html = await (await fetch(`${server.url}/events`)).text();
    expect(html).toMatch(/Alumni reunion[\s\S]*?Next Year/);
  });
});

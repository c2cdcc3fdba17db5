import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateGoogleEvents, startFakeGoogleCalendar, type FakeGoogleCalendar } from "../../../tests/fakes/google-calendar";
import type { UpstreamOptions } from "./fetch-upstream.server";
import { readCalendar, type CalendarSourceConfig } from "./read-calendar.server";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const FEED = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//test//EN",
  "BEGIN:VEVENT",
  "UID:one@test",
  "DTSTAMP:20260101T000000Z",
  "DTSTART:20260310T180000Z",
  "DTEND:20260310T200000Z",
  "SUMMARY:Dinner",
  "DESCRIPTION:<b>Bring</b> a friend",
  "END:VEVENT",
  "END:VCALENDAR",
  "",
].join("\r\n");

function upstream(body: () => string): UpstreamOptions & { calls: () => number } {
  let calls = 0;
  return {
    timeoutMs: 2_000,
    retries: 0,
    backoffMs: () => 0,
    sleep: async () => {},
    fetch: async () => (calls++, new Response(body(), { headers: { "Content-Type": "text/calendar" } })),
    log: () => {},
    calls: () => calls,
  };
}

describe("readCalendar: an unchanged calendar is fetched, compared and left alone", () => {
  const ics: CalendarSourceConfig = { kind: "ics", url: "https://calendar.example.org/feed.ics" };

  it("converts a feed once, and answers unchanged for the same text on the same day", async () => {
    let text = FEED;
    const options = upstream(() => text);
    const first = await readCalendar(ics, NOW, undefined, options);
    expect(first.changed).toBe(true);
    if (!first.changed) return;
    expect(first.events.map((event) => event.summary)).toEqual(["Dinner"]);
    expect(new TextDecoder().decode(first.json)).toBe(JSON.stringify(first.events));

    const later = await readCalendar(ics, NOW + 3_600_000, first.responseHash, options);
    expect(later).toEqual({ changed: false, responseHash: first.responseHash });

    // Another day expands another window; another text is another calendar.
    expect((await readCalendar(ics, NOW + 86_400_000, first.responseHash, options)).changed).toBe(true);
    text = FEED.replace("SUMMARY:Dinner", "SUMMARY:Supper");
    const edited = await readCalendar(ics, NOW, first.responseHash, options);
    expect(edited.changed && edited.events[0]?.summary).toBe("Supper");
    expect(options.calls()).toBe(4);
  });

  it("keeps each description as sanitized HTML only: its text and links are read on demand", async () => {
    const read = await readCalendar(
      ics,
      NOW,
      undefined,
      upstream(() => FEED),
    );
    expect(read.changed && read.events[0]).toEqual(expect.objectContaining({ description: "<b>Bring</b> a friend" }));
    expect(read.changed && read.events[0]).not.toHaveProperty("descriptionText");
  });
});

describe("readCalendar against the fake Google Calendar", () => {
  let fake: FakeGoogleCalendar;
  let source: CalendarSourceConfig;
  const options: UpstreamOptions = {
    // No answer of the fake's takes this long, however busy the machine.
    timeoutMs: 60_000,
    retries: 0,
    backoffMs: () => 0,
    sleep: async () => {},
    fetch: (...args) => fetch(...args),
    log: () => {},
  };

  beforeAll(async () => {
    fake = await startFakeGoogleCalendar({ now: () => NOW });
    fake.setEvents(generateGoogleEvents({ count: 1_200, now: NOW }));
    source = { kind: "google", calendarId: fake.calendarId, apiKey: fake.apiKey, baseUrl: fake.url };
  });
  afterAll(() => fake.close());

  it("answers unchanged when every page's items are the same, whatever the page tokens say", async () => {
    const first = await readCalendar(source, NOW, undefined, options);
    expect(first.changed && first.events).toHaveLength(1_200);
    const requests = fake.requestCount();
    expect(requests).toBeGreaterThan(2);
    const again = await readCalendar(source, NOW + 1_000, first.responseHash, options);
    expect(again).toEqual({ changed: false, responseHash: first.responseHash });
    expect(fake.requestCount()).toBe(2 * requests);

    fake.setEvents(generateGoogleEvents({ count: 1_201, now: NOW }));
    const grown = await readCalendar(source, NOW + 2_000, first.responseHash, options);
    expect(grown.changed && grown.events).toHaveLength(1_201);
  });
});

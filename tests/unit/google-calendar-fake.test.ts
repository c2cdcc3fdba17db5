// The fake Google Calendar API answers as Google does: pretty by default, compact on request,
// cut to `fields`, pages of `maxResults`; and its generated calendar looks like a community's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventsWindow } from "~/events/server/time.server";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { generateGoogleEvents } from "../fakes/google-events";
import { applyFields, FieldsError, parseFields } from "../fakes/partial-response";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const window = eventsWindow(new Date(NOW));
let fake: FakeGoogleCalendar;

beforeAll(async () => {
  fake = await startFakeGoogleCalendar({ now: () => NOW });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function list(params: Record<string, string>): Promise<{ status: number; text: string; body: Record<string, unknown> }> {
  const query = new URLSearchParams({
    key: fake.apiKey,
    singleEvents: "true",
    orderBy: "startTime",
    timeMin: window.start.toISOString(),
    timeMax: window.end.toISOString(),
    ...params,
  });
  const response = await fetch(`${fake.url}/calendars/${encodeURIComponent(fake.calendarId)}/events?${query}`);
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

describe("partial response (fields)", () => {
  const event = { kind: "calendar#event", id: "a", summary: "S", start: { dateTime: "x", timeZone: "z" }, creator: { email: "e" } };
  const page = { kind: "calendar#events", etag: "t", nextPageToken: "n", items: [event, { ...event, id: "b" }] };

  it("keeps what a comma list with nested parentheses names, in the resource's order", () => {
    expect(applyFields(page, parseFields("nextPageToken,items(id,start)"))).toEqual({
      nextPageToken: "n",
      items: [
        { id: "a", start: { dateTime: "x", timeZone: "z" } },
        { id: "b", start: { dateTime: "x", timeZone: "z" } },
      ],
    });
    expect(applyFields(page, parseFields("items(start(dateTime),creator/email),kind"))).toEqual({
      kind: "calendar#events",
      items: [
        { start: { dateTime: "x" }, creator: { email: "e" } },
        { start: { dateTime: "x" }, creator: { email: "e" } },
      ],
    });
    expect(applyFields(page, parseFields("items/id"))).toEqual({ items: [{ id: "a" }, { id: "b" }] });
    expect(applyFields(page, parseFields("items(*)"))).toEqual({ items: page.items });
  });

  it.each([
    "",
    "items(",
    "items(id",
    "items)",
    "items(id))",
    "items,,id",
    "items(id)x",
    "nosuchfield",
    "items(nosuchfield)",
    "items(start(nope))",
    "items id",
  ])("refuses %j as Google does", (fields) => {
    expect(() => parseFields(fields)).toThrow(FieldsError);
  });
});

describe("the fake events.list", () => {
  it("pretty-prints by default (2 spaces) and answers compact JSON with prettyPrint=false", async () => {
    const pretty = await list({});
    expect(pretty.text).toMatch(/^\{\n {2}"kind": "calendar#events",\n {2}"etag": /);
    const compact = await list({ prettyPrint: "false" });
    expect(compact.text).toMatch(/^\{"kind":"calendar#events","etag":/);
    expect(compact.body).toEqual(pretty.body);
  });

  it("answers only the fields asked for, and 400 for a selection Google would refuse", async () => {
    const { status, body } = await list({ fields: "nextPageToken,items(id,status,summary,description,location,start,end,updated)" });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(["items"]);
    const items = body.items as Record<string, unknown>[];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items)
      expect(
        Object.keys(item).every((key) => ["id", "status", "summary", "description", "location", "start", "end", "updated"].includes(key)),
      ).toBe(true);
    const refused = await list({ fields: "items(id" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 400, errors: [{ reason: "invalidParameter", location: "fields" }] } });
  });

  it("pages by maxResults: 250 by default, 2,500 at most, 400 for a value that is no count", async () => {
    fake.setEvents(generateGoogleEvents({ count: 3_000, now: NOW, calendarId: fake.calendarId }));
    const count = async (params: Record<string, string>) =>
      ((await list({ ...params, fields: "items(id)" })).body.items as unknown[]).length;
    expect(await count({})).toBe(250);
    expect(await count({ maxResults: "40" })).toBe(40);
    expect(await count({ maxResults: "9999" })).toBe(2_500);
    expect((await list({ maxResults: "0" })).status).toBe(400);
    expect((await list({ maxResults: "ten" })).status).toBe(400);
  });

  it("follows its page tokens through a generated calendar, each event once", async () => {
    const calendar = generateGoogleEvents({ count: 1_234, now: NOW, calendarId: fake.calendarId });
    fake.setEvents(calendar);
    const ids: string[] = [];
    let pageToken: string | undefined;
    do {
      const { body } = await list({ maxResults: "500", ...(pageToken ? { pageToken } : {}), fields: "nextPageToken,items(id)" });
      ids.push(...(body.items as { id: string }[]).map((item) => item.id));
      pageToken = body.nextPageToken as string | undefined;
    } while (pageToken);
    expect(ids).toEqual(calendar.map((event) => event.id));
  });
});

describe("generateGoogleEvents", () => {
  const events = generateGoogleEvents({ count: 3_000, now: NOW });

  it("makes exactly the events asked for, inside the site's window, the same for the same seed", () => {
    expect(events).toHaveLength(3_000);
    expect(new Set(events.map((e) => e.id)).size).toBe(3_000);
    for (const event of events) {
      const start = Date.parse("dateTime" in event.start ? event.start.dateTime : `${event.start.date}T12:00:00Z`);
      expect(start).toBeGreaterThan(window.start.getTime());
      expect(start).toBeLessThan(window.end.getTime());
    }
    expect(generateGoogleEvents({ count: 3_000, now: NOW })).toEqual(events);
    expect(generateGoogleEvents({ count: 3_000, now: NOW, seed: 7 })).not.toEqual(events);
  });

  it("is mostly occurrences of series sharing a rich description, with some one-offs and virtual events", () => {
    const occurrences = events.filter((e) => e.recurringEventId);
    expect(occurrences.length / events.length).toBeCloseTo(0.85, 1);
    for (const e of occurrences) {
      expect(e.id.startsWith(`${e.recurringEventId}_`)).toBe(true);
      expect(e.originalStartTime).toBeDefined();
      expect(e.iCalUID).toBe(`${e.recurringEventId}@google.com`);
    }
    const series = new Map(occurrences.map((e) => [e.recurringEventId, e.description]));
    for (const e of occurrences) expect(e.description).toBe(series.get(e.recurringEventId));
    const sizes = events.map((e) => Buffer.byteLength(e.description ?? ""));
    expect(Math.min(...sizes)).toBeGreaterThan(1_300);
    expect(Math.max(...sizes)).toBeLessThan(1_800);
    const description = events[0]!.description!;
    for (const part of [
      "<b>",
      "<i>",
      "<u>",
      "<br>",
      "<ul><li>",
      "&nbsp;",
      "https://www.google.com/url?q=https://",
      "&amp;sa=D&amp;source=calendar&amp;usd=2&amp;usg=",
    ])
      expect(description).toContain(part);
    const virtual = events.filter((e) => e.conferenceData);
    expect(virtual.length).toBeGreaterThan(100);
    for (const e of virtual) {
      expect(e.hangoutLink).toBe(e.conferenceData!.entryPoints[0]!.uri);
      expect(e.conferenceData).toMatchObject({
        conferenceSolution: { key: { type: "hangoutsMeet" }, name: "Google Meet" },
        createRequest: { status: { statusCode: "success" } },
      });
    }
    const text = events.map((e) => `${e.summary} ${e.location}`).join("\n");
    expect(text).toMatch(/\p{Extended_Pictographic}/u);
    expect(text).toMatch(/[\u0590-\u05ff\u0600-\u06ff]/); // Hebrew, Arabic
    expect(text).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/); // Japanese, Chinese
  });

  it("gives every event Google's fields", () => {
    for (const key of [
      "kind",
      "etag",
      "id",
      "status",
      "htmlLink",
      "created",
      "updated",
      "summary",
      "description",
      "location",
      "creator",
      "organizer",
      "start",
      "end",
      "iCalUID",
      "sequence",
      "reminders",
      "eventType",
    ])
      expect(Object.keys(events[0]!)).toContain(key);
    expect(events[0]!.reminders).toEqual({ useDefault: true });
  });
});

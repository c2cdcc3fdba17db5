import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CalendarEvent } from "~/events/model";
import { MAX_STALE_MS } from "./cache.server";
import { serializeEvents } from "./read-calendar.server";
import { format2Events, saveFormat2 } from "../../../tests/fixtures/saved-copy-format-2";
import { hashCalendarIdentity, savedCopyFile, SAVED_COPY_FORMAT, SAVED_COPY_READS } from "./saved-copy.server";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const events: CalendarEvent[] = [
  { id: "a", summary: "שלום 🚀", start: { date: "2026-03-10" }, end: { date: "2026-03-11" } },
  { id: "b", summary: "Demo Day", description: "<b>Bring</b> a laptop", start: { dateTime: "2026-03-12T19:00:00-04:00" } },
];
const savedRead = (fetchedAt = NOW) => ({ json: serializeEvents(events).json, fetchedAt });

let dir = "";
let file = "";
let warnings: string[] = [];
const log = { warn: (m: string) => void warnings.push(m), info: () => {}, debug: () => {} };
/** The Google calendar the copies below are of, as a server's environment names it. */
const GOOGLE = { GOOGLE_CALENDAR_API_URL: "https://www.googleapis.com/calendar/v3", GOOGLE_CALENDAR_ID: "founders@example.org" };
const source = hashCalendarIdentity(`google\n${GOOGLE.GOOGLE_CALENDAR_API_URL}\n${GOOGLE.GOOGLE_CALENDAR_ID}`);

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "saved-copy-test-"));
  file = path.join(dir, "nested", "events.json");
  warnings = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the saved copy", () => {
  it("keeps a good read and gives it back, with its time, in another process's reader", async () => {
    await savedCopyFile(file, source, log).save(savedRead());
    const restored = savedCopyFile(file, source, log).load(NOW + 60_000, MAX_STALE_MS);
    expect(restored).toEqual({ events, fetchedAt: NOW });
    expect(warnings).toEqual([]);
    // The calendar's identity hashed, never its address.
    expect(readFileSync(file, "utf8")).not.toContain("founders@example.org");
  });

  it("reads a copy the previous version wrote (format 2, by its own writer), dropping the description forms it kept", async () => {
    expect(SAVED_COPY_READS).toEqual([SAVED_COPY_FORMAT, 2]);
    const written = format2Events(NOW);
    expect(written.some((event) => event.descriptionLinks && event.descriptionText)).toBe(true);
    await saveFormat2(file, GOOGLE, { events: written, fetchedAt: NOW - 3_600_000 });
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ format: 2 });
    const restored = savedCopyFile(file, source, log).load(NOW, MAX_STALE_MS);
    const expected = written.map(({ descriptionText: _text, descriptionLinks: _links, ...event }) => event);
    expect(restored).toEqual({ events: expected, fetchedAt: NOW - 3_600_000 });
    expect(warnings).toEqual([]);
  });

  it("has nothing to give when there is no file, silently", () => {
    expect(savedCopyFile(file, source, log).load(NOW, MAX_STALE_MS)).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it("never gives a saved copy of another calendar", async () => {
    await savedCopyFile(file, hashCalendarIdentity("ics\nhttps://other.example.org/feed.ics"), log).save(savedRead());
    expect(savedCopyFile(file, source, log).load(NOW, MAX_STALE_MS)).toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining("holds another calendar: ignored")]);
  });

  it("gives nothing older than the stale limit", async () => {
    await savedCopyFile(file, source, log).save(savedRead(NOW - MAX_STALE_MS - 1));
    expect(savedCopyFile(file, source, log).load(NOW, MAX_STALE_MS)).toBeUndefined();
  });

  it.each([
    ["truncated JSON", () => '{"format":1,"source":"', "is not JSON"],
    [
      "another format",
      () => JSON.stringify({ format: 1, source, fetchedAt: new Date(NOW).toISOString(), events }),
      "of another format (1, this version reads 3 and 2)",
    ],
    [
      "a wrong shape",
      () => JSON.stringify({ format: SAVED_COPY_FORMAT, source, fetchedAt: "yesterday", events }),
      "not a valid saved copy",
    ],
    [
      "events that are not events",
      () => JSON.stringify({ format: SAVED_COPY_FORMAT, source, fetchedAt: new Date(NOW).toISOString(), events: [{ summary: 1 }] }),
      "not a valid saved copy",
    ],
    ["an empty file", () => "", "is not JSON"],
  ])("ignores %s with one warning, never throwing", (_name, content, why) => {
    writeFileSync(path.join(dir, "bad.json"), content());
    expect(savedCopyFile(path.join(dir, "bad.json"), source, log).load(NOW, MAX_STALE_MS)).toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining(why)]);
  });

  it("stays whole when two instances write it at once, and leaves no temporary files", async () => {
    const one = savedCopyFile(file, source, log);
    const two = savedCopyFile(file, source, log);
    const reader = savedCopyFile(file, source, log);
    await one.save(savedRead(NOW));
    const writes: Promise<void>[] = [];
    for (let i = 1; i <= 40; i++) writes.push((i % 2 ? one : two).save(savedRead(NOW + i)));
    // Read while they write: always a whole copy.
    for (let i = 0; i < 20; i++) {
      expect(reader.load(NOW + 100, MAX_STALE_MS)?.events).toEqual(events);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
    expect(reader.load(NOW + 100, MAX_STALE_MS)?.events).toEqual(events);
    expect(readdirSync(path.dirname(file))).toEqual(["events.json"]);
    expect(warnings).toEqual([]);
  });

  it("rejects a write it cannot make with what went wrong, for the events service to log once", async () => {
    writeFileSync(path.join(dir, "a-file"), "");
    await expect(savedCopyFile(path.join(dir, "a-file", "events.json"), source, log).save(savedRead())).rejects.toThrow(
      /could not be written \(E[A-Z]+\)/,
    );
  });
});

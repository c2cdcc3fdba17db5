import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { readDescription } from "./description.server";
import { eventToIcs, icsFileName } from "./ics-download.server";
import { foldLines } from "./ics-text.server";

const now = new Date("2026-03-01T12:00:00Z");

describe("eventToIcs", () => {
  it("writes one VEVENT with UTC times, escaped text and plain-text description, folded at 75", () => {
    const ics = eventToIcs(
      {
        id: "abc_123",
        summary: "Dinner; drinks, and talk",
        location: "Room 1, 2 W 44th St",
        ...readDescription(
          `<b>Bring</b> a friend<br>Line two <a href="https://a.example">link</a><script>x()</script>` + " long".repeat(30),
        ),
        start: { dateTime: "2026-03-12T19:00:00-04:00", timeZone: "America/New_York" },
        end: { dateTime: "2026-03-12T20:30:00-04:00" },
      },
      { stamp: now, uidDomain: "example.org" },
    );
    expect(ics).toContain("BEGIN:VCALENDAR\r\n");
    expect(ics).toContain("UID:abc_123@example.org\r\n");
    expect(ics).toContain("DTSTAMP:20260301T120000Z\r\n");
    expect(ics).toContain("DTSTART:20260312T230000Z\r\n");
    expect(ics).toContain("DTEND:20260313T003000Z\r\n");
    expect(ics).toContain("SUMMARY:Dinner\\; drinks\\, and talk\r\n");
    expect(ics).toContain("LOCATION:Room 1\\, 2 W 44th St\r\n");
    expect(ics).toContain("DESCRIPTION:Bring a friend\\nLine two link long");
    expect(ics).not.toMatch(/<|script|x\(\)/);
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    // And it reads back as the same event.
    const vevent = new ICAL.Component(ICAL.parse(ics) as unknown[]).getFirstSubcomponent("vevent")!;
    expect(vevent.getFirstPropertyValue("summary")).toBe("Dinner; drinks, and talk");
    expect(String(vevent.getFirstPropertyValue("description"))).toMatch(/^Bring a friend\nLine two link( long)+$/);
  });

  it("folds by octets, never inside a multi-byte character", () => {
    const folded = foldLines(`DESCRIPTION:${"é•".repeat(60)}`);
    for (const line of folded.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(folded.split("\r\n").length).toBeGreaterThan(3);
    expect(folded.replace(/\r\n /g, "")).toBe(`DESCRIPTION:${"é•".repeat(60)}`);
  });

  it("writes all-day events as VALUE=DATE with the exclusive end", () => {
    const ics = eventToIcs(
      { id: "x", summary: "Retreat", start: { date: "2026-03-20" }, end: { date: "2026-03-23" } },
      { stamp: now, uidDomain: "example.org" },
    );
    expect(ics).toContain("DTSTART;VALUE=DATE:20260320\r\n");
    expect(ics).toContain("DTEND;VALUE=DATE:20260323\r\n");
  });

  it.each([{ dateTime: "not-a-real-date" }, { date: "Next Year" }])("writes no DTSTART for a start kept as written (%j)", (start) => {
    const ics = eventToIcs({ id: "x", summary: "Reunion", start, end: start }, { stamp: now, uidDomain: "example.org" });
    expect(ics).not.toMatch(/DTSTART|DTEND|NaN/);
    expect(ics).toContain("SUMMARY:Reunion\r\n");
  });

  it.each([
    ["Member Core Group Dinner", "member-core-group-dinner.ics"],
    ['Café & Co. / "quoted"', "cafe-co-quoted.ics"],
    ["", "event.ics"],
    ["日本語", "event.ics"],
  ])("file name for %j is %s", (summary, name) => {
    expect(icsFileName({ id: "x", summary })).toBe(name);
  });
});

import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { describeCuts, MAX_ITERATIONS_PER_SERIES, repeatDays, startWalk, walkAll, walkStart, type Walk } from "./ics-series-walk.server";

const DAY = 86_400_000;
const vevent = (...lines: string[]) =>
  new ICAL.Component(
    ICAL.parse(["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:x", ...lines, "END:VEVENT", "END:VCALENDAR"].join("\r\n")),
  ).getFirstSubcomponent("vevent")!;
const startOf = (component: ICAL.Component) => component.getFirstPropertyValue("dtstart") as ICAL.Time;
const dayOf = (time: ICAL.Time) => Date.UTC(time.year, time.month - 1, time.day) / DAY;

/** ical.js's own walk from `start`, every occurrence up to `untilDay` (day number), as strings. */
function walkFrom(component: ICAL.Component, start: ICAL.Time, untilDay: number): string[] {
  const out: string[] = [];
  const iterator = new ICAL.Event(component).iterator(start);
  for (let next = iterator.next(); next && dayOf(next) <= untilDay; next = iterator.next()) out.push(next.toString());
  return out;
}

describe("walkStart: DTSTART moved ahead by whole repeats gives the same occurrences from there", () => {
  const before = Date.UTC(2026, 0, 15) / DAY;
  const until = before + 60;
  it.each([
    ["daily", "DTSTART:19900102T140000Z", "RRULE:FREQ=DAILY"],
    ["every third day, with a TZID", "DTSTART;TZID=America/New_York:19900101T070000", "RRULE:FREQ=DAILY;INTERVAL=3"],
    ["weekdays only", "DTSTART;TZID=Europe/Berlin:19900101T083000", "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"],
    ["a DTSTART that is not in the rule", "DTSTART:19900106T090000Z", "RRULE:FREQ=DAILY;BYDAY=MO,WE"],
    ["all-day, every other week, three days", "DTSTART;VALUE=DATE:19900103", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR"],
    ["every other week from Sunday", "DTSTART:19900107T180000", "RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=SU,SA"],
    ["twice a day", "DTSTART:19900101T090000Z", "RRULE:FREQ=DAILY;BYHOUR=9,17"],
    ["last weekday of each week in February", "DTSTART:19920203T120000Z", "RRULE:FREQ=WEEKLY;BYMONTH=2;BYDAY=MO,FR;BYSETPOS=-1"],
    ["leap days", "DTSTART;VALUE=DATE:19920229", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29"],
    ["two rules", "DTSTART:19900101T120000Z", "RRULE:FREQ=DAILY;INTERVAL=2", "RRULE:FREQ=WEEKLY;INTERVAL=3"],
    ["an UNTIL inside the span", "DTSTART:19900101T120000Z", "RRULE:FREQ=DAILY;UNTIL=20260201T000000Z"],
    ["an UNTIL before the moved start", "DTSTART:19900101T120000Z", "RRULE:FREQ=DAILY;UNTIL=20000101T000000Z"],
  ])("%s", (_name, ...lines) => {
    const component = vevent(...lines);
    const start = startOf(component);
    const moved = walkStart(component, start, before);
    expect(dayOf(moved)).toBeGreaterThan(dayOf(start));
    expect(dayOf(moved)).toBeLessThanOrEqual(before);
    expect(before - dayOf(moved)).toBeLessThan(repeatDays(component)!);
    // The moved start itself is an occurrence of the walk even where the rule would not give it: after it, both agree.
    const full = walkFrom(component, start, until).filter((t) => t > moved.toString());
    expect(walkFrom(component, moved, until).filter((t) => t > moved.toString())).toEqual(full);
  });

  it.each([
    ["COUNT (occurrences are counted from the start)", "RRULE:FREQ=DAILY;COUNT=20000"],
    ["monthly", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1"],
    ["yearly", "RRULE:FREQ=YEARLY"],
    ["hourly", "RRULE:FREQ=HOURLY;INTERVAL=5"],
    ["a daily rule beside a monthly one", "RRULE:FREQ=DAILY", "RRULE:FREQ=MONTHLY"],
  ])("stays at DTSTART for %s", (_name, ...rules) => {
    const component = vevent("DTSTART:19900101T120000Z", ...rules);
    expect(repeatDays(component)).toBeUndefined();
    expect(walkStart(component, startOf(component), before)).toBe(startOf(component));
  });

  it("stays at DTSTART when it is already near", () => {
    const component = vevent("DTSTART:20260110T120000Z", "RRULE:FREQ=WEEKLY");
    expect(walkStart(component, startOf(component), before)).toBe(startOf(component));
  });
});

describe("walkAll: the feed's steps shared between series", () => {
  const window = { start: new Date("2025-03-01T00:00:00Z"), end: new Date("2027-03-01T00:00:00Z") };
  const walkOf = (uid: string, ...lines: string[]): Walk => {
    const component = vevent(...lines);
    return startWalk(component, startOf(component), window, 3_600_000, (t) => t.toJSDate() >= window.end, { uid, summary: uid });
  };

  it("lets the series that need few steps finish, and the rest share what they leave", () => {
    const counted = Array.from({ length: 3 }, (_, i) => walkOf(`counted-${i}`, "DTSTART:19900101T120000Z", "RRULE:FREQ=DAILY;COUNT=19000"));
    const weekly = walkOf("weekly", "DTSTART:20261105T230000Z", "RRULE:FREQ=WEEKLY");
    walkAll([...counted, weekly], 30_000);
    expect(weekly.cut).toBeUndefined();
    expect(weekly.kept).toHaveLength(17); // 5 November 2026 to the end of February 2027
    for (const walk of counted) {
      expect(walk.cut).toBe("feed");
      expect(walk.steps).toBeGreaterThan(9_900);
    }
    expect(counted.reduce((sum, w) => sum + w.steps, weekly.steps)).toBeLessThanOrEqual(30_000);
  });

  it("stops a rule that never reaches the window at its own limit", () => {
    const hourly = walkOf("hourly", "DTSTART:19900101T120000Z", "RRULE:FREQ=HOURLY");
    walkAll([hourly]);
    expect(hourly).toMatchObject({ cut: "series", steps: MAX_ITERATIONS_PER_SERIES, kept: [] });
  });

  it("costs a series moved near the window a few steps before it", () => {
    const daily = walkOf("daily", "DTSTART:19900101T120000Z", "RRULE:FREQ=DAILY");
    walkAll([daily]);
    expect(daily.cut).toBeUndefined();
    expect(daily.kept.length).toBe(730 + 3);
    expect(daily.steps).toBeLessThan(daily.kept.length + 10);
  });

  it("names each series cut, shortened, with its steps and the limit it reached", () => {
    const long = walkOf("x".repeat(200), "DTSTART:19900101T120000Z", "RRULE:FREQ=HOURLY");
    const counted = [walkOf("counted\u0007", "DTSTART:19900101T120000Z", "RRULE:FREQ=DAILY;COUNT=19000")];
    counted.push(walkOf("counted too", "DTSTART:19900101T120000Z", "RRULE:FREQ=DAILY;COUNT=19000"));
    walkAll([long]);
    walkAll(counted, 20_000);
    const line = describeCuts([long, ...counted], "The calendar feed", 20_000)!;
    expect(line).toMatch(
      /^\[events\] The calendar feed has recurring series too long to expand \(at most 20000 steps a series, 20000 in all\): 3 cut short/,
    );
    expect(line).toContain(`UID "${"x".repeat(47)}…" "${"x".repeat(47)}…" (${MAX_ITERATIONS_PER_SERIES} steps, its own limit)`);
    expect(line).toContain(
      `UID "counted?" "counted?" (10000 steps, the feed's limit); UID "counted too" "counted too" (10000 steps, the feed's limit)`,
    );
    expect(describeCuts([walkOf("fine", "DTSTART:20260101T120000Z", "RRULE:FREQ=DAILY;COUNT=3")], "x")).toBeUndefined();
  });
});

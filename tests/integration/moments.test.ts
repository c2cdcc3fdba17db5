// Issue 49, item 4: the pages and answers that depend on the date, at the moments that stress a calendar,
// with the server's machine in three zones. Each (moment, zone) is one built production server under
// libfaketime (tests/support/clock.ts) reading a calendar made around its moment
// (tests/fixtures/moments-calendar.ts) from one fake feed. Every expectation is worked out in New York with
// Intl (tests/support/new-york.ts), never with the site's own time code, and judged with the clock's now
// when the answer is read. A case collects every problem it finds, so one run shows all of them.
import { DomUtils, parseDocument } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_VIEW } from "~/events/tab";
import { momentCalendar, MARGIN_MS, NEW_YORK_VTIMEZONE, type Expected, type MomentCalendar } from "../fixtures/moments-calendar";
import { startFakeIcsFeed, type FakeIcsFeed } from "../fakes/ics-feed";
import { clockAt, type TestClock } from "../support/clock";
import { icsSource } from "../support/environments";
import { describeReport, validateHtml } from "../support/html-validity";
import { plainText } from "../support/new-york";
import { calendarRead, startServer } from "../support/start-server";

const MOMENTS = [
  { name: "mid-month", at: "2026-10-14T11:30:00-04:00" },
  { name: "New York's last minutes of the year, UTC already in the next", at: "2026-12-31T23:50:00-05:00" },
  { name: "New York's first minutes of a month (after a February of 28 days)", at: "2027-03-01T00:10:00-05:00" },
  { name: "just after the clocks spring forward (02:00 EST -> 03:00 EDT)", at: "2027-03-14T03:05:00-04:00" },
  // Both 01:20s: the first is read from the feed's New York times (an event that ended at the first 01:10).
  { name: "the first 01:20 of the day the clocks go back (EDT)", at: "2026-11-01T01:20:00-04:00" },
  { name: "the second 01:20 of the day the clocks go back (EST)", at: "2026-11-01T01:20:00-05:00" },
  { name: "a leap day's last minutes, UTC already in March", at: "2028-02-29T23:50:00-05:00" },
] as const;

/** The server's machine far east of New York (+14), far west (−11), and at UTC. */
const ZONES = ["Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"] as const;

const SITE_URL = "https://founders.example.org";
/** The site's own pages in the sitemap, beside the upcoming events'. */
const SITEMAP_PAGES = ["/", "/apply", "/about", "/contact", "/events", "/portal"];

// ---- A case's findings ----------------------------------------------------------------------------------

/** What a case found wrong, one line each. */
type Findings = string[];

function check(findings: Findings, ok: boolean, message: () => string): void {
  if (!ok) findings.push(message());
}

/** `actual` is `expected`; lists item by item, and of two objects only what differs, so a finding stays one short line. */
function same(findings: Findings, where: string, actual: unknown, expected: unknown): void {
  if (Array.isArray(actual) && Array.isArray(expected)) {
    for (let i = 0; i < Math.max(actual.length, expected.length); i++) same(findings, `${where} [${i}]`, actual[i], expected[i]);
    return;
  }
  if (isRecord(actual) && isRecord(expected)) {
    for (const key of new Set([...Object.keys(actual), ...Object.keys(expected)]))
      same(findings, `${where} ${key}`, actual[key], expected[key]);
    return;
  }
  const a = JSON.stringify(actual) ?? "nothing";
  const e = JSON.stringify(expected) ?? "nothing";
  check(findings, a === e, () => `${where}: ${a}, expected ${e}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

// ---- Reading the server's HTML ----------------------------------------------------------------------------

type Document = ReturnType<typeof parseDocument>;
type Element = Parameters<typeof DomUtils.getAttributeValue>[0];

const all = (root: Document | Element, test: (element: Element) => boolean): Element[] =>
  DomUtils.findAll(test, root.children as Element[]);
const first = (root: Document | Element, test: (element: Element) => boolean): Element | undefined =>
  DomUtils.findOne(test, root.children as Element[]) ?? undefined;
const attr = (element: Element | undefined, name: string) => (element ? element.attribs[name] : undefined);
const text = (element: Element | undefined) => (element ? plainText(DomUtils.textContent(element)) : "");
const hasClass = (element: Element, name: string) => (element.attribs.class ?? "").split(/\s+/).includes(name);
const tagIs = (name: string) => (element: Element) => element.name === name;

/** Every JSON-LD object of a page (a block holds one, or an array). */
function jsonLdEvents(doc: Document): Array<Record<string, unknown>> {
  return all(doc, (e) => e.name === "script" && attr(e, "type") === "application/ld+json")
    .flatMap((script) => [JSON.parse(DomUtils.textContent(script)) as unknown].flat() as Array<Record<string, unknown>>)
    .filter((item) => item["@type"] === "Event");
}

/** The cards (640 px and up) of a list, in order, one line each: title, date line, <time dateTime>, link. */
function cardsOf(list: Document | Element): string[] {
  return all(list, (e) => e.name === "article" && hasClass(e, "event-card")).map((card) => {
    const heading = first(card, tagIs("h3"));
    const time = first(card, tagIs("time"));
    const when = text(time ?? first(card, (e) => hasClass(e, "event-card-when")));
    return `${text(heading)} | ${when} | ${attr(time, "datetime")} | ${attr(first(heading ?? card, tagIs("a")), "href")}`;
  });
}

/** The phones' list, in order, one line each: its month group's heading, date block, title, date line (read aloud), time, link. */
function compactOf(list: Element): string[] {
  return all(list, tagIs("section")).flatMap((section) => {
    const month = text(first(section, tagIs("h3")));
    return all(section, (e) => e.name === "div" && hasClass(e, "compact-event")).map((item) => {
      const block = first(item, (e) => hasClass(e, "compact-event-day"));
      const link = first(item, tagIs("a"));
      const when = text(first(item, (e) => e.name === "p" && hasClass(e, "sr-only")));
      const place = text(first(item, (e) => hasClass(e, "compact-event-place")));
      const day = block ? all(block, tagIs("span")).map(text).join(" ") : "";
      return `${month} | ${day} | ${text(link)} | ${when} | ${place} | ${attr(link, "href")}`;
    });
  });
}

/** What an event's card should say, and its line in the phones' list. */
const cardOf = (event: Expected, id: string) => `${event.title} | ${event.when} | ${event.machine} | /events/${id}`;
function compactItemOf(event: Expected, id: string): string {
  const { weekday, day, time } = event.block;
  return `${event.monthLabel} | ${weekday} ${day} | ${event.title} | ${event.when} | ${time ?? ""} | /events/${id}`;
}

/**
 * A list of events as a page carries it twice (the phones' list and the cards, app/events/event-list.tsx):
 * both must show exactly `expected`, in that order, with New York's dates.
 */
function checkList(findings: Findings, where: string, list: Element | undefined, expected: Expected[], ids: Map<string, string>): void {
  if (!list) return void findings.push(`${where}: no list`);
  const compact = first(list, (e) => hasClass(e, "compact-events"));
  const cards = first(list, (e) => e.name === "ul" && hasClass(e, "event-cards"));
  const idOf = (event: Expected) => ids.get(event.title) ?? "?";
  if (expected.length === 0) {
    check(findings, !compact && !cards, () => `${where}: a list, expected none (no events)`);
    return;
  }
  same(
    findings,
    `${where}, cards`,
    cards ? cardsOf(cards) : [],
    expected.map((e) => cardOf(e, idOf(e))),
  );
  same(
    findings,
    `${where}, phones' list`,
    compact ? compactOf(compact) : [],
    expected.map((e) => compactItemOf(e, idOf(e))),
  );
  // Each phones' section is named by its own heading.
  for (const section of compact ? all(compact, tagIs("section")) : []) {
    const heading = first(section, tagIs("h3"));
    check(
      findings,
      !!heading && attr(section, "aria-labelledby") === attr(heading, "id"),
      () => `${where}: a section not named by its heading`,
    );
  }
}

// ---- The sweep --------------------------------------------------------------------------------------------

/** Valid HTML by the project's rules (tests/support/html-validity.ts), each distinct text checked once. */
const validations = new Map<string, Promise<string[]>>();
function htmlProblems(html: string, path: string): Promise<string[]> {
  let problems = validations.get(html);
  if (!problems) {
    problems = validateHtml(html, path).then(describeReport);
    validations.set(html, problems);
  }
  return problems;
}

type Answer = { status: number; type: string; body: string; /** The clock's now when it was read. */ now: number };

/** One (moment, zone): a server on its clock, every page and answer that depends on the date, checked. */
async function sweep(calendar: MomentCalendar, clock: TestClock, zone: string, feedUrl: string): Promise<Findings> {
  const findings: Findings = [];
  const server = await startServer({ ...icsSource(feedUrl), TZ: zone, SITE_URL }, { clock });
  try {
    await calendarRead(server.url);
    const get = async (path: string): Promise<Answer> => {
      const res = await fetch(`${server.url}${path}`);
      const body = await res.text();
      return { status: res.status, type: res.headers.get("content-type") ?? "", body, now: clock.now() };
    };
    const page = async (path: string): Promise<{ doc: Document; now: number } | undefined> => {
      const answer = await get(path);
      check(findings, answer.status === 200, () => `${path}: ${answer.status}`);
      if (answer.status !== 200) return undefined;
      for (const problem of await htmlProblems(answer.body, path)) findings.push(`${path} is not valid HTML: ${problem}`);
      return { doc: parseDocument(answer.body), now: answer.now };
    };
    const { expected } = calendar;
    const upcomingAt = (now: number) => expected.filter((e) => e.end > now).sort((a, b) => a.start - b.start);
    const pastAt = (now: number) => expected.filter((e) => e.end <= now).sort((a, b) => b.start - a.start);

    // The API: every event once, with its times as the calendar worker writes them (New York's offset).
    // It has no tabs: ?tab=past answers the same events.
    const ids = new Map<string, string>();
    for (const path of ["/api/calendar/events", "/api/calendar/events?tab=past"]) {
      const answer = await get(path);
      check(findings, answer.status === 200, () => `${path}: ${answer.status}`);
      const body = JSON.parse(answer.body) as {
        events: Array<{ id: string; summary?: string; start?: Record<string, string>; end?: Record<string, string> }>;
        subscribeUrl?: string;
        stale: boolean;
      };
      same(findings, `${path}: its subscription feed`, body.subscribeUrl, feedUrl);
      same(findings, `${path}: its events`, body.events.map((e) => e.summary).sort(), expected.map((e) => e.title).sort());
      for (const event of expected) {
        const listed = body.events.find((e) => e.summary === event.title);
        if (!listed) continue;
        ids.set(event.title, listed.id);
        const timeOf = (time: Record<string, string> | undefined) => (time?.date ? { date: time.date } : { dateTime: time?.dateTime });
        same(findings, `${path}: "${event.title}"'s start and end`, { start: timeOf(listed.start), end: timeOf(listed.end) }, event.api);
      }
    }

    // /events at both addresses holds both tabs' lists, the address's own shown; each event in exactly one.
    const monthLinks = new Set<string>();
    for (const [path, active] of [
      ["/events", "upcoming"],
      ["/events?tab=past", "past"],
    ] as const) {
      const loaded = await page(path);
      if (!loaded) continue;
      const { doc, now } = loaded;
      const upcoming = upcomingAt(now);
      const past = pastAt(now);
      const panels = new Map(
        all(doc, (e) => e.name === "div" && e.attribs["data-tab-panel"] !== undefined).map((e) => [attr(e, "data-tab-panel"), e]),
      );
      for (const [tab, events] of [
        ["upcoming", upcoming],
        ["past", past],
      ] as const) {
        const panel = panels.get(tab);
        check(
          findings,
          !!panel && (attr(panel, "hidden") === undefined) === (tab === active),
          () => `${path}: the ${tab} list ${panel ? "hidden wrongly" : "missing"}`,
        );
        checkList(findings, `${path}, ${tab}`, panel, events.slice(0, FIRST_VIEW), ids);
        const more =
          panel && first(panel, (e) => e.name === "a" && /^\/events\/month\//.test(attr(e, "href") ?? "") && !hasClass(e, "archive-chip"));
        check(
          findings,
          !!more === events.length > FIRST_VIEW,
          () => `${path}, ${tab}: ${events.length} events, the link to the rest ${more ? "there" : "missing"}`,
        );
      }
      // Every event of the calendar is in exactly one of the two lists (each holds all of its tab here: at most FIRST_VIEW).
      const listed = [...panels.values()].flatMap((panel) => cardsOf(panel).map((card) => card.split(" | ")[0]!));
      for (const event of expected) {
        const times = listed.filter((title) => title === event.title).length;
        check(findings, times === 1, () => `${path}: "${event.title}" is in ${times} of the two lists`);
      }
      check(findings, upcoming.length <= FIRST_VIEW && past.length <= FIRST_VIEW, () => `${path}: a tab longer than its first view`);
      // Structured data: the upcoming events the page shows, with New York's dates.
      same(
        findings,
        `${path}: JSON-LD events`,
        jsonLdEvents(doc).map((e) => ({ name: e.name, startDate: e.startDate, endDate: e.endDate })),
        upcoming.slice(0, FIRST_VIEW).map((e) => ({ name: e.title, ...e.jsonLd })),
      );
      // The subscription feed: the calendar's own (an iCalendar source's address), beside the list and in the calendar's section.
      const subscribe = all(doc, (e) => e.name === "a" && /^Subscribe to the calendar/.test(text(e)));
      check(findings, subscribe.length > 0, () => `${path}: no subscribe link`);
      for (const link of subscribe) same(findings, `${path}: the subscribe link`, attr(link, "href"), feedUrl);
      // The months: each with its count of events, as the calendar has them in New York.
      const chips = all(doc, (e) => e.name === "a" && hasClass(e, "archive-chip"));
      const months = [...new Set(expected.map((e) => e.month))].sort().reverse();
      same(
        findings,
        `${path}: the month links`,
        chips.map((a) => `${attr(a, "href")} ${text(a)}`),
        months.map((month) => {
          const inMonth = expected.filter((e) => e.month === month);
          return `/events/month/${month} ${inMonth[0]!.monthLabel}: ${inMonth.length} event${inMonth.length === 1 ? "" : "s"}`;
        }),
      );
      for (const chip of chips) monthLinks.add(attr(chip, "href")!);
    }

    // Every month page /events links: 200, valid, that New York month's events in date order; together, every event once.
    const onMonthPages: string[] = [];
    for (const path of monthLinks) {
      const loaded = await page(path);
      if (!loaded) continue;
      const month = path.slice("/events/month/".length);
      const events = expected.filter((e) => e.month === month).sort((a, b) => a.start - b.start);
      checkList(findings, path, first(loaded.doc, tagIs("main")), events, ids);
      onMonthPages.push(...cardsOf(loaded.doc).map((card) => card.split(" | ")[0]!));
    }
    same(findings, "the month pages' events", onMonthPages.sort(), expected.map((e) => e.title).sort());

    // An upcoming (running across the moment), a today's (all day) and a past event's (ended just before) page, and .ics.
    for (const uid of ["running", "today", "ended"]) {
      const event = expected.find((e) => e.uid === uid)!;
      const id = ids.get(event.title);
      if (!id) continue;
      const loaded = await page(`/events/${id}`);
      if (!loaded) continue;
      const { doc, now } = loaded;
      const where = `/events/${id} ("${event.title}")`;
      const upcoming = event.end > now;
      const article = first(doc, (e) => e.name === "article" && attr(e, "aria-labelledby") === "event-title");
      same(findings, `${where}: title`, text(first(doc, (e) => attr(e, "id") === "event-title")), event.title);
      const when = first(article ?? doc, tagIs("dd"));
      same(findings, `${where}: when`, [text(when), attr(first(when ?? doc, tagIs("time")), "datetime")], [event.when, event.machine]);
      const back = article && first(article, tagIs("a"));
      same(
        findings,
        `${where}: its list`,
        [attr(back, "href"), text(back)],
        upcoming ? ["/events", "Upcoming events"] : ["/events?tab=past", "Past events"],
      );
      const tookPlace = text(article).includes(`This event took place on ${event.when}.`);
      check(
        findings,
        tookPlace === !upcoming,
        () => `${where}: ${upcoming ? "says it took place" : "does not say it took place"} (now ${new Date(now).toISOString()})`,
      );
      const icsPath = `/api/calendar/events/${id}.ics`;
      const icsLink = first(doc, (e) => e.name === "a" && attr(e, "href") === icsPath);
      check(findings, !!icsLink === upcoming, () => `${where}: the .ics link ${icsLink ? "offered for a past event" : "missing"}`);
      same(
        findings,
        `${where}: JSON-LD`,
        jsonLdEvents(doc).map((e) => ({ name: e.name, startDate: e.startDate, endDate: e.endDate })),
        [{ name: event.title, ...event.jsonLd }],
      );
      const description =
        attr(
          first(doc, (e) => e.name === "meta" && attr(e, "name") === "description"),
          "content",
        ) ?? "";
      check(
        findings,
        plainText(description).includes(event.when),
        () => `${where}: the description "${description}" without "${event.when}"`,
      );
      // The event's .ics: its UTC instants, or its dates as written.
      const ics = await get(icsPath);
      check(findings, ics.status === 200 && ics.type.startsWith("text/calendar"), () => `${icsPath}: ${ics.status} ${ics.type}`);
      const lines = ics.body.split("\r\n");
      same(
        findings,
        `${icsPath}: DTSTART, DTEND`,
        lines.filter((line) => /^DT(START|END)[;:]/.test(line)),
        [event.ics.dtstart, event.ics.dtend],
      );
      check(findings, lines.includes(`SUMMARY:${event.title}`), () => `${icsPath}: no SUMMARY:${event.title}`);
    }

    // The sitemap: every address once; the site's pages and the upcoming events' pages, no past one.
    const sitemap = await get("/sitemap.xml");
    check(findings, sitemap.status === 200, () => `/sitemap.xml: ${sitemap.status}`);
    const locs = [...sitemap.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    same(
      findings,
      "/sitemap.xml: addresses listed twice",
      locs.filter((loc, i) => locs.indexOf(loc) !== i),
      [],
    );
    same(
      findings,
      "/sitemap.xml: its addresses",
      [...locs].sort(),
      [...SITEMAP_PAGES, ...upcomingAt(sitemap.now).map((e) => `/events/${ids.get(e.title)}`)].map((path) => `${SITE_URL}${path}`).sort(),
    );

    // The home page does not depend on the date, but is the first page anyone reads at any moment.
    await page("/");

    // Every boundary still to come was at least MARGIN_MS away: if the case took longer, its verdicts may be a boundary late.
    check(
      findings,
      clock.now() - clock.at < MARGIN_MS,
      () => `the case took ${clock.now() - clock.at} ms, more than the calendar's margin`,
    );
    return findings;
  } finally {
    await server.stop();
  }
}

// A feed's times written in New York's zone inside the hour its clocks repeat (2026-11-01, 01:00-02:00) or skip
// (2027-03-14, 02:00-03:00), in a feed that carries New York's VTIMEZONE as Google's and Apple's exports do.
// RFC 5545 §3.3.5 reads a repeated wall time as its first instant and a skipped one with the offset before
// the gap; app/events/time.ts (wallTimeToInstant) says the same. At the first 01:20 of 2026-11-01 (EDT), an
// event that ended at the first 01:10 ended ten minutes ago.
const CLOCK_CHANGES_AT = "2026-11-01T01:20:00-04:00";
const CLOCK_CHANGES = {
  ended: { title: "Meetup ending in the first 01:10", start: "2026-11-01T00:30:00-04:00", end: "2026-11-01T01:10:00-04:00" },
  repeated: { title: "Night shift from the first 01:30", start: "2026-11-01T01:30:00-04:00", end: "2026-11-01T02:30:00-05:00" },
  skipped: {
    title: "Night shift written at 02:30, the skipped hour",
    start: "2027-03-14T03:30:00-04:00",
    end: "2027-03-14T04:00:00-04:00",
  },
};
const CLOCK_CHANGES_FEED = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//Founders Circle//Moments sweep//EN",
  ...NEW_YORK_VTIMEZONE,
  ...[
    ["ended", "20261101T003000", "20261101T011000"],
    ["repeated", "20261101T013000", "20261101T023000"],
    ["skipped", "20270314T023000", "20270314T040000"],
  ].flatMap(([key, start, end]) => [
    "BEGIN:VEVENT",
    `UID:${key}@moments.example.org`,
    "DTSTAMP:20260101T000000Z",
    `SUMMARY:${CLOCK_CHANGES[key as keyof typeof CLOCK_CHANGES].title}`,
    `DTSTART;TZID=America/New_York:${start}`,
    `DTEND;TZID=America/New_York:${end}`,
    "END:VEVENT",
  ]),
  "END:VCALENDAR",
  "",
].join("\r\n");

describe("the pages that depend on the date, at moments that stress a calendar", () => {
  const calendars = new Map(MOMENTS.map((moment) => [moment.at, momentCalendar(Date.parse(moment.at))]));
  const feedName = (at: string) => `moment-${at.replace(/[^0-9]/g, "")}.ics`;
  let feed: FakeIcsFeed;

  beforeAll(async () => {
    feed = await startFakeIcsFeed({
      ...Object.fromEntries(MOMENTS.map(({ at }) => [feedName(at), calendars.get(at)!.ics])),
      "clock-changes.ics": CLOCK_CHANGES_FEED,
    });
  });
  afterAll(() => feed?.close());

  // One case at a time, each a server's start and a dozen pages (a few seconds): the other files of the run use
  // the second core.
  for (const { name, at } of MOMENTS) {
    for (const zone of ZONES) {
      it(`${name} (${at}), the server's machine in ${zone}`, async () => {
        expect(await sweep(calendars.get(at)!, clockAt(at), zone, feed.urlOf(feedName(at)))).toEqual([]);
      });
    }
  }

  // Found by this sweep: a time with a VTIMEZONE was read with ical.js's own arithmetic, which took the repeated
  // hour's second instant (EST) and moved a skipped time an hour back (01:30 EST): the meetup that ended ten
  // minutes ago was listed under Upcoming, and the night shifts showed an hour off.
  it(`reads New York's repeated and skipped hours as RFC 5545 does (at ${CLOCK_CHANGES_AT})`, async () => {
    const found: Findings = [];
    const clock = clockAt(CLOCK_CHANGES_AT);
    const server = await startServer({ ...icsSource(feed.urlOf("clock-changes.ics")), SITE_URL }, { clock });
    try {
      await calendarRead(server.url);
      const { events } = (await (await fetch(`${server.url}/api/calendar/events`)).json()) as {
        events: Array<{ summary?: string; start?: { dateTime?: string }; end?: { dateTime?: string } }>;
      };
      for (const { title, start, end } of Object.values(CLOCK_CHANGES)) {
        const listed = events.find((event) => event.summary === title);
        same(found, `/api/calendar/events: "${title}"`, [listed?.start?.dateTime, listed?.end?.dateTime], [start, end]);
      }
      const past = await (await fetch(`${server.url}/events?tab=past`)).text();
      const pastList = first(parseDocument(past), (e) => e.name === "div" && attr(e, "data-tab-panel") === "past");
      const titles = pastList ? cardsOf(pastList).map((card) => card.split(" | ")[0]) : [];
      check(
        found,
        titles.includes(CLOCK_CHANGES.ended.title),
        () =>
          `/events?tab=past: "${CLOCK_CHANGES.ended.title}", which ended at ${CLOCK_CHANGES.ended.end}, is not under Past (now ${new Date(clock.now()).toISOString()}); Past lists ${JSON.stringify(titles)}`,
      );
    } finally {
      await server.stop();
    }
    expect(found).toEqual([]);
  });
});

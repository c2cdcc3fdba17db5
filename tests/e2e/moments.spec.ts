import type { Page } from "@playwright/test";
import { FIRST_VIEW } from "~/events/tab";
import { momentCalendar, MARGIN_MS, type Expected } from "../fixtures/moments-calendar";
import { startFakeIcsFeed, type FakeIcsFeed } from "../fakes/ics-feed";
import { clockAt, type TestClock } from "../support/clock";
import { icsSource } from "../support/environments";
import { calendarRead, startServer, type RunningServer } from "../support/start-server";
import { DESKTOP, expect, oneServerForTheGroup, PHONE, test, waitForHydration } from "./fixtures";

// Issue 49, item 4, in the browser: /events at moments that stress a calendar (tests/integration/moments.test.ts
// checks the server's answers there), with the browser's clock in a zone far from New York. At each width the
// list a visitor sees (the compact list on phones, the cards from 640 px) holds exactly the tab's events, in
// order, with New York's dates; hydrated, the document repeats no id and every aria-labelledby names an element
// of its own list, before and after a switch of tabs.

const MOMENTS = [
  // New York's last minutes of 2026: UTC is in 2027 already, the browser at +14 well into January 1.
  { at: "2026-12-31T23:50:00-05:00", browser: "Pacific/Kiritimati", server: "Pacific/Pago_Pago" },
  // New York's first minutes of March: the browser at −11 is still in February.
  { at: "2027-03-01T00:10:00-05:00", browser: "Pacific/Pago_Pago", server: "Pacific/Kiritimati" },
] as const;

/** One event as the visible list shows it, in a line: the phones' month heading and date block, or the card's <time>. */
type Row = string;

/** The rows of the list the visitor sees in the shown tab, and which of the two lists that is. */
async function visibleList(page: Page): Promise<{ kind: string; rows: Row[] }> {
  const panel = page.locator("div[data-tab-panel]:not([hidden])");
  const compact = panel.locator(".compact-events");
  const cards = panel.locator("ul.event-cards");
  const [compactShown, cardsShown] = [await compact.isVisible(), await cards.isVisible()];
  if (compactShown === cardsShown) return { kind: `${compactShown ? "both" : "neither"} of the lists`, rows: [] };
  if (compactShown) {
    const rows = await compact.locator("section").evaluateAll((sections) =>
      sections.flatMap((section) => {
        const month = section.querySelector("h3")?.textContent ?? "";
        return [...section.querySelectorAll(".compact-event")].map((item) => {
          const day = [...item.querySelectorAll(".compact-event-day span")].map((span) => span.textContent).join(" ");
          const when = item.querySelector("p.sr-only")?.textContent ?? "";
          const time = item.querySelector(".compact-event-place")?.textContent ?? "";
          return `${month} | ${day} | ${item.querySelector("a")?.textContent} | ${when} | ${time}`;
        });
      }),
    );
    return { kind: "compact", rows: rows.map(spaces) };
  }
  const rows = await cards.locator("article").evaluateAll((articles) =>
    articles.map((card) => {
      const time = card.querySelector("time");
      return `${card.querySelector("h3")?.textContent} | ${time?.textContent} | ${time?.getAttribute("datetime")}`;
    }),
  );
  return { kind: "cards", rows: rows.map(spaces) };
}

/** Every space as one plain space: the site joins a time to its AM/PM and zone with non-breaking ones. */
const spaces = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ").trim();

const compactRow = (e: Expected): Row =>
  spaces(`${e.monthLabel} | ${e.block.weekday} ${e.block.day} | ${e.title} | ${e.when} | ${e.block.time ?? ""}`);
const cardRow = (e: Expected): Row => `${e.title} | ${e.when} | ${e.machine}`;

/** What the tab should list at `now`: Upcoming soonest first, Past most recent first. */
function tabAt(expected: Expected[], tab: "upcoming" | "past", now: number): Expected[] {
  const events =
    tab === "upcoming"
      ? expected.filter((e) => e.end > now).sort((a, b) => a.start - b.start)
      : expected.filter((e) => e.end <= now).sort((a, b) => b.start - a.start);
  return events.slice(0, FIRST_VIEW);
}

/** The live document's ids that repeat, and the aria-labelledby references that name nothing or leave their own list. */
function idProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const seen = new Map<string, number>();
    for (const element of document.querySelectorAll("[id]")) seen.set(element.id, (seen.get(element.id) ?? 0) + 1);
    for (const [id, count] of seen) if (count > 1) problems.push(`id "${id}" ${count} times`);
    const listOf = (element: Element) => element.closest(".compact-events, ul.event-cards");
    for (const labelled of document.querySelectorAll("[aria-labelledby]")) {
      for (const id of labelled.getAttribute("aria-labelledby")!.split(/\s+/)) {
        const target = document.getElementById(id);
        if (!target) problems.push(`aria-labelledby "${id}" names nothing`);
        else if (listOf(labelled) !== listOf(target)) problems.push(`aria-labelledby "${id}" names an element outside its own list`);
      }
    }
    return problems;
  });
}

for (const { at, browser, server: serverZone } of MOMENTS) {
  test.describe(`/events at ${at}, the browser in ${browser}`, () => {
    oneServerForTheGroup();
    test.use({ timezoneId: browser });

    const calendar = momentCalendar(Date.parse(at));
    let feed: FakeIcsFeed;
    let server: RunningServer;
    let clock: TestClock;

    test.beforeAll(async () => {
      feed = await startFakeIcsFeed({ "moment.ics": calendar.ics });
      clock = clockAt(at);
      server = await startServer({ ...icsSource(feed.urlOf("moment.ics")), TZ: serverZone }, { clock });
      await calendarRead(server.url);
    });
    test.afterAll(async () => {
      await server?.stop();
      await feed?.close();
    });

    for (const [width, viewport, row] of [
      ["375", PHONE, compactRow],
      ["1280", DESKTOP, cardRow],
    ] as const) {
      test(`at ${width} px: each tab lists its events with New York's dates, ids unique before and after a switch`, async ({ page }) => {
        await page.setViewportSize(viewport);
        const kind = width === "375" ? "compact" : "cards";
        const tabs = page.getByRole("navigation", { name: "Events" });
        await page.goto(`${server.url}/`);
        expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(browser);
        for (const [path, first, second] of [
          ["/events", "upcoming", "past"],
          ["/events?tab=past", "past", "upcoming"],
        ] as const) {
          await page.goto(`${server.url}${path}`);
          // Judged at the clock's now when read; every boundary still to come is MARGIN_MS away at least.
          expect(await visibleList(page), `${path}, as loaded`).toEqual({
            kind,
            rows: tabAt(calendar.expected, first, clock.now()).map(row),
          });
          await waitForHydration(page);
          expect(await idProblems(page), `${path}, hydrated`).toEqual([]);
          await tabs.getByRole("link", { name: second === "past" ? "Past" : "Upcoming" }).click();
          await expect(tabs.getByRole("link", { name: second === "past" ? "Past" : "Upcoming" })).toHaveAttribute("aria-current", "page");
          expect(await visibleList(page), `${path}, switched to ${second}`).toEqual({
            kind,
            rows: tabAt(calendar.expected, second, clock.now()).map(row),
          });
          expect(await idProblems(page), `${path}, switched to ${second}`).toEqual([]);
        }
        expect(clock.now() - clock.at).toBeLessThan(MARGIN_MS);
      });
    }
  });
}

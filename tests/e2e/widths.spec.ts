import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import ICAL from "ical.js";
import { expect, test, waitForHydration } from "./fixtures";
import { listPages } from "./support/list-pages";
import { HEIGHT, WIDTHS, report, sweep } from "./support/overflow";
import { AWKWARD_CALENDAR, startIcsBackedServer, stopIcsBackedServer, type IcsBackedServer } from "./support/ics-server";

// Issue 11: every page at every width a visitor uses (support/overflow.ts). Each page as it loads is swept in
// every-page.spec.ts; the open drawer, and a calendar of what people paste, here.

/** The awkward calendar's twelve titles, as its file gives them. */
const AWKWARD_TITLES = new ICAL.Component(ICAL.parse(readFileSync(new URL(`../fixtures/${AWKWARD_CALENDAR}`, import.meta.url), "utf8")))
  .getAllSubcomponents("vevent")
  .map((event) => String(event.getFirstPropertyValue("summary")));

test.describe("every width", () => {
  test("the open drawer fits every width that shows the menu button", async ({ page }) => {
    await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
    await page.goto("/events");
    await waitForHydration(page);
    const button = page.getByRole("button", { name: "Open menu" });
    const drawer = page.getByRole("dialog", { name: "Menu" });
    const withMenu: number[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      if (await button.isVisible()) withMenu.push(width);
    }
    // Phones and upright tablets have the drawer; laptops have the inline navigation.
    expect(withMenu).toEqual(WIDTHS.filter((w) => w < 1024));
    const found = await sweep(page, withMenu, async () => {
      if (!(await drawer.isVisible())) await button.click();
      await expect(drawer).toBeVisible();
      await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
    });
    expect(report(found)).toEqual([]);
  });
});

// Issue 20: what people paste into calendars. A 91-character title and a 69-character place
// without a space, URLs as places and in descriptions, hashtags, and titles in Hebrew, Arabic,
// Devanagari, Chinese, Japanese, Korean, Greek, Cyrillic and emoji, on the list (cards and the
// compact phone list) and on every event's page.
test.describe("every width, with a calendar of long words, URLs and many scripts", () => {
  let calendar: IcsBackedServer | undefined;
  test.beforeAll(async () => {
    calendar = await startIcsBackedServer(AWKWARD_CALENDAR);
  });
  test.afterAll(async () => {
    await stopIcsBackedServer(calendar ?? {});
  });

  /** The list pages are swept in parts of six or seven pages, as the titles' tests sweep six, so they spread over the workers. */
  const PARTS = 4;

  /** The list pages: the Past tab and every month of the archive (about 25). */
  async function listPaths(page: Page): Promise<string[]> {
    const { past, months } = await listPages(page, calendar!.server.url);
    expect(months.length).toBeGreaterThan(PARTS);
    return [past, ...months];
  }

  test("the list pages swept below hold every event, the longest title among them", async ({ page, request }) => {
    const { events } = (await (await request.get(`${calendar!.server.url}/api/calendar/events`)).json()) as { events: { id: string }[] };
    const linked = new Set<string>();
    let longTitle = 0;
    for (const path of await listPaths(page)) {
      const html = await (await request.get(`${calendar!.server.url}${path}`)).text();
      for (const [, id] of html.matchAll(/href="\/events\/([^"/?#]+)"/g)) linked.add(id!);
      longTitle += html.match(/FoundersCircleAnnualGeneralMeeting/g)?.length ?? 0;
    }
    expect(events.filter((event) => !linked.has(event.id))).toEqual([]);
    expect(longTitle).toBeGreaterThan(0);
  });

  // The sweeps below measure the pages as the server sends them (hydrating each was a third of their time). That is what
  // a visitor sees once React runs too, since hydrating changes nothing in them: checked here on a list page (both tabs'
  // lists, the months) and on an event's page, with their awkward titles, places and descriptions.
  test("hydrating a list page or an event's page changes nothing of what the sweeps measure", async ({ page, request }) => {
    const { events } = (await (await request.get(`${calendar!.server.url}/api/calendar/events`)).json()) as { events: { id: string }[] };
    const paths = [(await listPaths(page))[0]!, `/events/${events[0]!.id}`];
    for (const path of paths) {
      await page.goto(`${calendar!.server.url}${path}`);
      const markup = () => page.locator("header, main, footer").evaluateAll((parts) => parts.map((part) => part.outerHTML));
      const served = await markup();
      expect(served.join("").length, path).toBeGreaterThan(5_000);
      await waitForHydration(page);
      expect(await markup(), path).toEqual(served);
    }
  });

  for (let part = 0; part < PARTS; part++) {
    test(`every archive page (every event in a list) fits every width from 320 to 1440 px, part ${part + 1} of ${PARTS}`, async ({
      page,
    }) => {
      const paths = (await listPaths(page)).filter((_, i) => i % PARTS === part);
      const found: string[] = [];
      for (const path of paths) {
        await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
        // As the server sent it: the test above shows that hydrating changes none of it.
        await page.goto(`${calendar!.server.url}${path}`);
        // The page lists events (not only the months' links).
        await expect(page.locator("main a[href^='/events/']:not([href^='/events/month'])").first()).toBeAttached();
        found.push(...report(await sweep(page, WIDTHS)).map((problem) => `${path}: ${problem}`));
      }
      expect(found).toEqual([]);
    });
  }

  // Three titles a test (each repeats yearly: a past page and an upcoming one, with "How to join" and the calendar
  // buttons), so the pages spread over the workers.
  const TITLES_A_TEST = 3;
  for (let first = 0; first < AWKWARD_TITLES.length; first += TITLES_A_TEST) {
    const titles = AWKWARD_TITLES.slice(first, first + TITLES_A_TEST);
    test(`both pages of ${titles.map((title) => `"${title}"`).join(", ")} fit every width from 320 to 1440 px`, async ({
      page,
      request,
    }) => {
      const { events } = (await (await request.get(`${calendar!.server.url}/api/calendar/events`)).json()) as {
        events: { id: string; summary: string }[];
      };
      // Every title of the fixture is listed (so no page is left out), each of these twice.
      expect(new Set(events.map((event) => event.summary))).toEqual(new Set(AWKWARD_TITLES));
      const found: string[] = [];
      for (const title of titles) {
        const pages = events.filter((event) => event.summary === title).map((event) => event.id);
        expect(pages, title).toHaveLength(2);
        for (const id of pages) {
          await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
          await page.goto(`${calendar!.server.url}/events/${id}`);
          found.push(...report(await sweep(page, WIDTHS)).map((problem) => `/events/${id}: ${problem}`));
        }
      }
      expect(found).toEqual([]);
    });
  }
});

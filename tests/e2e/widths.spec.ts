import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import ICAL from "ical.js";
import { NOT_FOUND_PATH, PAGES, expect, test, waitForHydration } from "./fixtures";
import { listPages } from "./support/list-pages";
import { AWKWARD_CALENDAR, startIcsBackedServer, stopIcsBackedServer, type IcsBackedServer } from "./support/ics-server";

// Issue 11: every page at every width a visitor uses, from the smallest phone to a laptop,
// without a sideways scroll or a cut-off control. Each page is loaded once and resized through
// the widths (the layout is CSS only, so a resize shows what a fresh load at that width shows).
const WIDTHS = [320, 360, 375, 414, 600, 768, 800, 834, 1024, 1280, 1440] as const;
const HEIGHT = 900;

const PATHS = [...PAGES.map((p) => p.path), "/events?tab=past", NOT_FOUND_PATH];

type Overflow = { width: number; problem: string };

/**
 * Runs in the page: the document's width beyond the viewport, and every visible element of the header, main and
 * footer (and the drawer, which lives in the header) whose right edge passes the viewport's. Elements inside a box
 * that clips (overflow other than visible) are judged by that box. No frame is waited for: the page has its new size
 * once setViewportSize returns, the first read of a box lays it out at that size, and nothing but the drawer moves
 * by transition (its sweep waits for the drawer's end position). Waiting two frames a width was a third of the sweep.
 */
function measureOverflow(): { documentWidth: number; viewport: number; outside: string[] } {
  const viewport = document.documentElement.clientWidth;
  const outside: string[] = [];
  const reported: Element[] = [];
  const clips = (el: Element) => getComputedStyle(el).overflowX !== "visible";
  const describe = (el: Element) => {
    const id = el.id ? `#${el.id}` : "";
    const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${el.tagName.toLowerCase()}${id} class="${(el.getAttribute("class") ?? "").slice(0, 60)}"> "${text}"`;
  };
  for (const root of document.querySelectorAll("header, main, footer")) {
    for (const el of [root, ...root.querySelectorAll("*")]) {
      const rect = el.getBoundingClientRect();
      // Not rendered, or a 1 px visually hidden label (sr-only).
      if (rect.width <= 1 || rect.height <= 1) continue;
      if (rect.right <= viewport + 0.5) continue;
      // The outermost element that passes the edge names the cause; its children follow it out.
      if (reported.some((outer) => outer.contains(el))) continue;
      let clipped = false;
      for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (clips(parent) && parent.getBoundingClientRect().right <= viewport + 0.5) {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      reported.push(el);
      outside.push(`${describe(el)} ends at ${Math.round(rect.right)} px`);
    }
  }
  return { documentWidth: document.documentElement.scrollWidth, viewport, outside };
}

async function sweep(page: Page, widths: readonly number[], before?: () => Promise<void>): Promise<Overflow[]> {
  const found: Overflow[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: HEIGHT });
    await before?.();
    const { documentWidth, viewport, outside } = await page.evaluate(measureOverflow);
    if (documentWidth > viewport) found.push({ width, problem: `the document is ${documentWidth} px wide in a ${viewport} px viewport` });
    for (const problem of outside.slice(0, 5)) found.push({ width, problem });
  }
  return found;
}

const report = (found: Overflow[]) => found.map((f) => `${f.width} px: ${f.problem}`);

/** The awkward calendar's twelve titles, as its file gives them. */
const AWKWARD_TITLES = new ICAL.Component(ICAL.parse(readFileSync(new URL(`../fixtures/${AWKWARD_CALENDAR}`, import.meta.url), "utf8")))
  .getAllSubcomponents("vevent")
  .map((event) => String(event.getFirstPropertyValue("summary")));

test.describe("every width", () => {
  for (const path of PATHS) {
    test(`${path} fits every width from 320 to 1440 px`, async ({ page }) => {
      await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
      await page.goto(path);
      await waitForHydration(page);
      expect(report(await sweep(page, WIDTHS))).toEqual([]);
    });
  }

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

  /** The list pages are swept in parts of three or four pages, as the titles' tests sweep two, so they spread over the workers. */
  const PARTS = 8;

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

  // A test per title (each repeats yearly: a past page and an upcoming one, with "How to join" and the
  // calendar buttons), so the pages spread over the workers.
  for (const title of AWKWARD_TITLES) {
    test(`both pages of "${title}" fit every width from 320 to 1440 px`, async ({ page, request }) => {
      const { events } = (await (await request.get(`${calendar!.server.url}/api/calendar/events`)).json()) as {
        events: { id: string; summary: string }[];
      };
      // Every title of the fixture is listed (so no page is left out), this one twice.
      expect(new Set(events.map((event) => event.summary))).toEqual(new Set(AWKWARD_TITLES));
      const pages = events.filter((event) => event.summary === title).map((event) => event.id);
      expect(pages).toHaveLength(2);
      const found: string[] = [];
      for (const id of pages) {
        await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
        await page.goto(`${calendar!.server.url}/events/${id}`);
        found.push(...report(await sweep(page, WIDTHS)).map((problem) => `/events/${id}: ${problem}`));
      }
      expect(found).toEqual([]);
    });
  }
});

import type { FakeGoogleCalendar } from "../fakes/google-calendar";
import { suiteClock } from "../support/clock";
import { endOfNewYorkDay } from "../support/event-time";
import type { RunningServer } from "../support/start-server";
import type { Page } from "@playwright/test";
import { DESKTOP, expect, oneServerForTheGroup, test, waitForHydration } from "./fixtures";
import { startGoogleBackedServer, stopGoogleBackedServer } from "./support/google-server";
import { failEventsData, holdEventsData, openEventsInApp, tolerateStatus } from "./support/events-api";
import { renameRouterGlobal, ROUTER_GLOBAL } from "./support/router-global";
import { pageSettled } from "./support/settled";
import { scanAtBothWidths } from "./support/axe";

// Both tabs' lists are in the page, the other one hidden: the cards a visitor sees.
const cards = (page: Page) => page.locator("main article:visible");

/** Marks the document, so a test can tell an in-place switch from a new page. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as Record<string, boolean>).__sameDocument = true));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as Record<string, boolean>).__sameDocument === true);

test.describe("events page (bundled sample calendar)", () => {
  test.use({ viewport: DESKTOP });

  test("shows no stranger's calendar: the area names the sample calendar and offers its feed", async ({ page }) => {
    await page.goto("/events");
    await expect(page.locator("iframe")).toHaveCount(0);
    const area = page.getByTestId("calendar-placeholder");
    await expect(area).toContainText("sample calendar");
    await expect(area.getByRole("link", { name: /Subscribe to the sample calendar/ })).toHaveAttribute("href", "/api/calendar/feed.ics");
  });

  test("lists upcoming events with badges; an event's page has the add-to-calendar links", async ({ page }) => {
    await page.goto("/events");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Upcoming events" })).toBeVisible();
    await expect(cards(page)).toHaveCount(10);
    await expect(cards(page).getByText("Members Only", { exact: true }).first()).toBeVisible();
    await expect(cards(page).getByText("Open", { exact: true }).first()).toBeVisible();

    // A card shows what and when (issue 37); its page has the rest.
    await cards(page).first().getByRole("link").click();
    await expect(page).toHaveURL(/\/events\/[\w-]+$/);
    const google = page.getByRole("link", { name: /^Google Calendar/ }).first();
    await expect(google).toHaveAttribute("href", /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE/);
    await expect(google).toHaveAttribute("target", "_blank");
    await expect(google).toHaveAttribute("rel", "noopener noreferrer");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page
        .getByRole("link", { name: /^Add to calendar \(\.ics\)/ })
        .first()
        .click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const text = await (await download.createReadStream()).toArray();
    expect(Buffer.concat(text).toString()).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*BEGIN:VEVENT/);
  });

  // Once React runs, a tab's click is React Router's navigation alone: the start script (app/events/tab-switch.ts)
  // switches the list in place and leaves the address to the router. Had both moved it, the click would leave two
  // history entries (Back would stay on Past); had the script alone, the router would not know (Back would show
  // Upcoming's address over the Past list: the script leaves Back to React by then). One entry, and Back and Forward
  // showing what the address says, are the address bar and the router agreeing. The script knows React runs by the
  // site's own flag (app/lib/react-started.ts): the second run serves React Router's chunks with its router's global
  // renamed, as a release that renamed it would, and the tabs must not notice.
  for (const renamed of [false, true]) {
    const as = renamed ? ` (React Router's ${ROUTER_GLOBAL} renamed)` : "";
    test(`tabs filter, live in the URL, and work with back and forward: one history entry a click, React Router's${as}`, async ({
      page,
    }) => {
      const rewrites = renamed ? await renameRouterGlobal(page) : undefined;
      await page.goto("/events");
      await waitForHydration(page);
      if (rewrites) test.skip(rewrites() === 0, `React Router's chunks no longer hold ${ROUTER_GLOBAL}: the first run shows the same`);
      const firstUpcoming = await cards(page).first().locator("h3").textContent();
      const tabs = page.getByRole("navigation", { name: "Events" });

      await markDocument(page);
      const requests: string[] = [];
      // Route discovery (/__manifest) and the icon may come meanwhile; no page, data or API request.
      page.on("request", (request) => {
        if (/\.data|\/api\/|\/events(\?|$)/.test(request.url())) requests.push(request.url());
      });
      const entries = await page.evaluate(() => history.length);
      await tabs.getByRole("link", { name: "Past" }).click();
      await expect(page).toHaveURL(/\/events\?tab=past$/);
      await expect(page.getByRole("heading", { name: "Past events" })).toBeVisible();
      await expect(tabs.getByRole("link", { name: "Past" })).toHaveAttribute("aria-current", "page");
      await expect(cards(page).first()).toBeVisible();
      // Whatever the click set off has run (every move of the address comes a frame later, in the same frame).
      await pageSettled(page);
      expect(await page.evaluate(() => history.length), "history entries after one click").toBe(entries + 1);
      // The switch is local: the page already holds the tab's first view.
      expect(requests).toEqual([]);
      expect(await sameDocument(page)).toBe(true);
      const pastTimes = await cards(page)
        .locator("time")
        .evaluateAll((els) => els.map((el) => el.getAttribute("datetime") ?? ""));
      expect(pastTimes.length).toBeGreaterThan(0);
      // Ended by the server's now (the run's clock): an all-day one's New York day is over, a timed one has started.
      const now = suiteClock().now();
      for (const t of pastTimes) expect(t.length === 10 ? endOfNewYorkDay(t) : Date.parse(t), t).toBeLessThanOrEqual(now);

      await page.goBack();
      await expect(page).toHaveURL(/\/events$/);
      await expect(page.getByRole("heading", { name: "Upcoming events" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Past events" })).toBeHidden();
      await expect(tabs.getByRole("link", { name: "Upcoming" })).toHaveAttribute("aria-current", "page");
      await expect(cards(page).first().locator("h3")).toHaveText(firstUpcoming ?? "");
      await page.goForward();
      await expect(page).toHaveURL(/\/events\?tab=past$/);
      await expect(page.getByRole("heading", { name: "Past events" })).toBeVisible();
      await expect(tabs.getByRole("link", { name: "Past" })).toHaveAttribute("aria-current", "page");
      expect(await sameDocument(page)).toBe(true);
    });
  }

  test("before React runs, a click on a tab switches in place; React then takes over from there", async ({ page }) => {
    await page.goto("/events");
    await markDocument(page);
    const tabs = page.getByRole("navigation", { name: "Events" });
    await tabs.getByRole("link", { name: "Past" }).click();
    await expect(page).toHaveURL(/\/events\?tab=past$/);
    await expect(page.getByRole("heading", { name: "Past events" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Upcoming events" })).toBeHidden();
    await expect(tabs.getByRole("link", { name: "Past" })).toHaveAttribute("aria-current", "page");
    await expect(tabs.getByRole("link", { name: "Upcoming" })).not.toHaveAttribute("aria-current", "page");
    expect(await sameDocument(page)).toBe(true);
    // Back, still before React: the page follows the address.
    await page.goBack();
    await expect(page).toHaveURL(/\/events$/);
    await expect(page.getByRole("heading", { name: "Upcoming events" })).toBeVisible();
    await page.goForward();
    await expect(page.getByRole("heading", { name: "Past events" })).toBeVisible();
    // React hydrates the switched page as it is (the fixture fails on any hydration error) and switches from then on.
    await waitForHydration(page);
    await tabs.getByRole("link", { name: "Upcoming" }).click();
    await expect(page).toHaveURL(/\/events$/);
    await expect(page.getByRole("heading", { name: "Upcoming events" })).toBeVisible();
    await expect(cards(page)).toHaveCount(10);
    expect(await sameDocument(page)).toBe(true);
  });

  test("the hidden tab's list is laid out once the pointer is on a tab, out of sight, of the flow and of the accessibility tree", async ({
    page,
  }) => {
    await page.goto("/events");
    const past = page.locator('div[data-tab-panel="past"]');
    await expect(past).toBeHidden();
    // Not laid out at load; once the pointer is on a tab, its cards have their size, so a click only reveals them
    // (npm run bench, navigation: the Past tab).
    await expect(past).not.toHaveAttribute("data-ahead");
    await page.getByRole("navigation", { name: "Events" }).getByRole("link", { name: "Past" }).hover();
    await expect(past).toHaveAttribute("data-ahead", "");
    const laidOut = await past.evaluate((panel) => ({
      visibility: getComputedStyle(panel).visibility,
      height: panel.getBoundingClientRect().height,
      cards: [...panel.querySelectorAll("article")].map((card) => card.getBoundingClientRect().height),
    }));
    expect(laidOut.visibility).toBe("hidden");
    expect(laidOut.height).toBe(0);
    expect(laidOut.cards.length).toBeGreaterThan(0);
    for (const height of laidOut.cards) expect(height).toBeGreaterThan(100);
    // Announced: the Upcoming cards only.
    const tree = await page.locator("main").ariaSnapshot();
    expect(tree.match(/^\s*- article\b/gm)).toHaveLength(await cards(page).count());
  });

  test("a shared ?tab=past link opens on the Past tab", async ({ page }) => {
    await page.goto("/events?tab=past");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Past events" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Events" }).getByRole("link", { name: "Past" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(cards(page).first()).toBeVisible();
  });

  test("client-side navigation shows the loading state, then the list", async ({ page }) => {
    const release = await holdEventsData(page);
    await openEventsInApp(page);
    await expect(page.getByRole("status")).toHaveText("Loading events...");
    release();
    await expect(cards(page)).toHaveCount(10);
    await expect(page.getByText("Loading events...")).toHaveCount(0);
  });

  test("client-side navigation shows the error state when the page's data fails", async ({ page, guard }) => {
    await failEventsData(page, 502);
    await openEventsInApp(page);
    const alert = page.getByRole("alert").filter({ hasText: "Failed to load events from calendar." });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText("Please check back later or contact support if the issue persists.");
    tolerateStatus(guard, 502);
  });
});

test.describe("events tabs without JavaScript", () => {
  test.use({ viewport: DESKTOP, javaScriptEnabled: false });

  test("the Past tab is a link the server answers with the Past list", async ({ page }) => {
    await page.goto("/events");
    await page.getByRole("navigation", { name: "Events" }).getByRole("link", { name: "Past" }).click();
    await expect(page).toHaveURL(/\/events\?tab=past$/);
    await expect(page.getByRole("heading", { name: "Past events" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Upcoming events" })).toBeHidden();
    await expect(cards(page).first()).toBeVisible();
  });
});

test.describe("an empty calendar", () => {
  test.use({ viewport: DESKTOP });
  let fake: FakeGoogleCalendar;
  let server: RunningServer;

  test.beforeAll(async () => {
    ({ fake, server } = await startGoogleBackedServer("empty"));
  });
  test.afterAll(() => stopGoogleBackedServer({ fake, server }));

  test("shows the empty state on both tabs, in-app too, with no axe violation at 375 and 1280 px", async ({ page }, testInfo) => {
    await openEventsInApp(page, server.url);
    await expect(page.getByText("No upcoming events scheduled at this time.")).toBeVisible();
    await scanAtBothWidths(page, testInfo, "/events (empty)");
    await page.getByRole("navigation", { name: "Events" }).getByRole("link", { name: "Past" }).click();
    await expect(page.getByText("No past events to show yet.")).toBeVisible();
  });
});

test.describe("event dates in a browser far from New York", () => {
  test.use({ viewport: DESKTOP, timezoneId: "Asia/Tokyo" });

  test("show the same New York dates as the server HTML, with no hydration drift", async ({ page }) => {
    const html = await (await page.request.get("/events")).text();
    // The Upcoming list, before the hidden Past one.
    const raw = html.slice(0, html.indexOf('<div data-tab-panel="past"'));
    const serverDates = [...raw.matchAll(/<time dateTime="[^"]+">([^<]+)<\/time>/g)].map((m) => m[1]);
    expect(serverDates.length).toBeGreaterThan(0);
    await page.goto("/events");
    await waitForHydration(page);
    const shown = await cards(page).locator("time").allTextContents();
    expect(shown).toEqual(serverDates);
    expect(shown.join(" ")).toMatch(/(EST|EDT)/);
  });
});

test.describe("hostile calendar descriptions", () => {
  oneServerForTheGroup();

  test.use({ viewport: DESKTOP });
  let fake: FakeGoogleCalendar;
  let server: RunningServer;

  test.beforeAll(async () => {
    ({ fake, server } = await startGoogleBackedServer("hostile"));
  });
  test.afterAll(() => stopGoogleBackedServer({ fake, server }));

  test("embeds GOOGLE_CALENDAR_ID's calendar", async ({ page }) => {
    await page.goto(`${server.url}/events`);
    const src = await page.getByTitle(/shared events calendar/).getAttribute("src");
    expect(new URL(src!).searchParams.get("src")).toBe(fake.calendarId);
    expect(new URL(src!).searchParams.get("ctz")).toBe("America/New_York");
  });

  test("render as text: no script runs, no dialog opens", async ({ page }) => {
    let dialogs = 0;
    page.on("dialog", (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    await page.goto(`${server.url}/events`);
    await waitForHydration(page);
    const hostile = page.locator("main article").filter({ hasText: "Hostile" });
    await expect(hostile).toHaveCount(3);
    await expect(page.locator("main article script, main article iframe, main article img")).toHaveCount(0);
    await expect(page.locator("main article [onerror], main article a[href^='javascript:']")).toHaveCount(0);
    // The text of the stripped link survives, as text (the card's excerpt: a press on it opens the event's page).
    await expect(hostile.getByText("Click me")).toBeVisible();
    await hostile.filter({ hasText: "Click me" }).click();
    await page.waitForURL(/\/events\/hostile3$/);
    await pageSettled(page);
    expect(dialogs).toBe(0);
    expect(await page.content()).not.toContain(fake.apiKey);
  });
});

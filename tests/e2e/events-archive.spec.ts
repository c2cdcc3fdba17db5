import { generateGoogleEvents } from "../fakes/google-events";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { calendarRead, startServer, type RunningServer } from "../support/start-server";
import { DESKTOP, expect, PHONE, oneServerForTheGroup, test, waitForHydration } from "./fixtures";
import { expectNoAxeViolations } from "./support/axe";

// Issue 37: the archive in pages. From /events, without JavaScript, a visitor reaches any event in a few
// plain links: a month, one of its pages, the event. Each archive page passes axe at phone and laptop widths.
// A calendar as Google sends it, busy enough for months in parts.
test.describe("the events archive", () => {
  oneServerForTheGroup();

  let fake: FakeGoogleCalendar;
  let server: RunningServer;

  test.beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
    fake.setEvents((now) => generateGoogleEvents({ count: 1_500, now }));
    server = await startServer(fake.env);
    await calendarRead(server.url);
  });
  test.afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  test.describe("without JavaScript", () => {
    test.use({ viewport: DESKTOP, javaScriptEnabled: false });

    test("/events → a month → its second page → an event, by plain links", async ({ page }) => {
      await page.goto(`${server.url}/events`);
      const months = page.getByRole("navigation", { name: "Every event, month by month" });
      // The busiest month: a page is at most 50 events.
      const counts = await months
        .getByRole("link")
        .evaluateAll((links) => links.map((a) => Number(a.lastElementChild?.textContent?.replace(/\D/g, ""))));
      await months
        .getByRole("link")
        .nth(counts.indexOf(Math.max(...counts)))
        .click();
      await expect(page).toHaveURL(/\/events\/month\/\d{4}-\d{2}$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Events in \w+ \d{4} \(page 1 of \d+\)$/);
      await page
        .getByRole("navigation", { name: /^Pages of / })
        .getByRole("link", { name: "Page 2" })
        .click();
      await expect(page).toHaveURL(/\/events\/month\/\d{4}-\d{2}\/2$/);
      await expect(page.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
      const card = page.locator("article.event-card").first();
      const title = await card.getByRole("heading").textContent();
      await card.getByRole("link").click();
      await expect(page).toHaveURL(/\/events\/[\w-]+$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title ?? "");
    });

    test("an archive page links the months before and after, and back to /events", async ({ page }) => {
      await page.goto(`${server.url}/events`);
      const month = await page
        .getByRole("navigation", { name: "Every event, month by month" })
        .getByRole("link")
        .nth(3)
        .getAttribute("href");
      await page.goto(`${server.url}${month}`);
      const steps = page.getByRole("navigation", { name: "Months" });
      await expect(steps.getByRole("link")).toHaveCount(3);
      await steps.getByRole("link", { name: "All member events" }).click();
      await expect(page).toHaveURL(/\/events$/);
    });
  });

  test("an archive page has no axe violations at 375 and 1280 px", async ({ page }, testInfo) => {
    // Two axe scans of a page of 50 cards, at two widths: about 20 s quiet.
    test.setTimeout(90_000);
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/events`);
    const month = await page
      .getByRole("navigation", { name: "Every event, month by month" })
      .getByRole("link")
      .first()
      .getAttribute("href");
    await page.goto(`${server.url}${month}`);
    await waitForHydration(page);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, testInfo, `${month} at ${viewport.width} px`);
    }
  });
});

import type { FakeGoogleCalendar } from "../fakes/google-calendar";
import type { RunningServer } from "../support/start-server";
import { DESKTOP, PHONE, expect, isHydrated, test } from "./fixtures";
import { startGoogleBackedServer, stopGoogleBackedServer } from "./support/google-server";

// Spec §4's loading state, from the server: a calendar slower than a second to answer its first
// read does not hold the visitor on a blank screen. The page arrives with the spinner, starts its
// scripts without waiting for an interaction, and the list replaces the spinner when the read ends.

test.describe("a calendar slow to answer its first read", () => {
  let fake: FakeGoogleCalendar;
  let server: RunningServer;

  test.beforeEach(async () => {
    ({ fake, server } = await startGoogleBackedServer("slow", { slowMs: 2_500 }));
  });
  // The page goes first: a request it still makes (the favicon, fetched after load) must not meet a stopped server.
  test.afterEach(async ({ page }) => {
    await page.close();
    await stopGoogleBackedServer({ fake, server });
  });

  test.describe("with JavaScript", () => {
    test.use({ viewport: DESKTOP });

    test("shows 'Loading events...' at once, then the list, with no interaction", async ({ page }) => {
      // The document's own timing is measured in tests/integration/events-page.test.ts.
      await page.goto(`${server.url}/events`, { waitUntil: "commit" });
      await expect(page.getByRole("status")).toHaveText("Loading events...");
      // Nobody touches the page: its scripts started by themselves and fetch the list.
      await expect.poll(() => page.evaluate(isHydrated), { timeout: 10_000 }).toBe(true);
      await expect(page.locator("main article").first()).toBeVisible({ timeout: 10_000 });
      await expect(page.getByText("Loading events...")).toHaveCount(0);
    });
  });

  test.describe("without JavaScript", () => {
    test.use({ viewport: PHONE, javaScriptEnabled: false });

    test("says how to see the list, and reloading shows it", async ({ page }) => {
      await page.goto(`${server.url}/events`);
      await expect(page.getByText("Loading events...")).toBeVisible();
      const reload = page.getByRole("link", { name: "Reload the page" });
      await expect(reload).toBeVisible();
      // Once the read has ended (the server says so), the link leads to the list.
      await expect
        .poll(async () => ((await (await fetch(`${server.url}/readyz`)).json()) as { events: { state: string } }).events.state, {
          timeout: 15_000,
        })
        .toBe("fresh");
      await reload.click();
      // At 375 px the list is the compact one: an item per event, linking to its page.
      await expect(page.locator('main li:has(a[href^="/events/"])').first()).toBeVisible();
    });
  });
});

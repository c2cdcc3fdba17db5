import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { startServer, type RunningServer } from "../support/start-server";
import { DESKTOP, PHONE, expect, isHydrated, test } from "./fixtures";
import { stopGoogleBackedServer } from "./support/google-server";

// Spec §4's loading state, from the server: a calendar slower than a second to answer its first
// read does not hold the visitor on a blank screen. The page arrives with the spinner, starts its
// scripts without waiting for an interaction, and the list replaces the spinner when the read ends.
// The fake calendar holds its answer until the test has seen the loading state (the server starts
// its first read at boot: a fixed delay could end before the page is asked for), and no longer: the
// server gives up on a read after its upstream timeout.

test.describe("a calendar slow to answer its first read", () => {
  let fake: FakeGoogleCalendar;
  let server: RunningServer;
  let answer: () => void;

  test.beforeEach(async () => {
    fake = await startFakeGoogleCalendar();
    answer = fake.hold();
    // The hold lasts from the server's boot to the test's first look at the page: however long that
    // takes on a busy machine, the server must not give up on the read meanwhile (app/timings.server.ts).
    server = await startServer({ ...fake.env, TIMINGS: JSON.stringify({ upstreamTimeoutMs: 60_000 }) });
  });
  // The page goes first: a request it still makes (the favicon, fetched after load) must not meet a stopped server.
  test.afterEach(async ({ page }) => {
    answer();
    await page.close();
    await stopGoogleBackedServer({ fake, server });
  });

  test.describe("with JavaScript", () => {
    test.use({ viewport: DESKTOP });

    test("shows 'Loading events...' at once, then the list, with no interaction", async ({ page }) => {
      // The document's own timing is measured in tests/integration/events-page.test.ts.
      await page.goto(`${server.url}/events`, { waitUntil: "commit" });
      await expect(page.getByRole("status")).toHaveText("Loading events...");
      answer();
      // Nobody touches the page: its scripts start by themselves, and ask again until the read has ended.
      await page.waitForFunction(isHydrated);
      await expect(page.locator("main article").first()).toBeVisible();
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
      answer();
      // Once the read has ended (the server says so), the link leads to the list.
      await expect
        .poll(async () => ((await (await fetch(`${server.url}/readyz`)).json()) as { events: { state: string } }).events.state)
        .toBe("fresh");
      await reload.click();
      // At 375 px the list is the compact one: an item per event, linking to its page.
      await expect(page.locator('main li:has(a[href^="/events/"])').first()).toBeVisible();
    });
  });
});

import { DESKTOP, PHONE, expect, test, waitForHydration } from "./fixtures";
import { expectNoAxeViolations, scanAtBothWidths } from "./support/axe";
import { showToast } from "./support/toast";
import { failEventsData, holdEventsData, openEventsInApp, tolerateStatus } from "./support/events-api";
import { startGoogleBackedServer, stopGoogleBackedServer } from "./support/google-server";

// The accessibility gate: axe-core finds no WCAG 2.2 AA violation on any page, in any state,
// at phone and desktop width. Every page as it loads is scanned in every-page.spec.ts; the states
// other than a page's first (loading, error, stale, the drawer open, a toast) are here, and the empty
// calendar's in events.spec.ts, on the server it starts for its empty state.

// The list's other states: loading and error reached in-app, whose data request the tests hold or
// fail; stale from a fake Google Calendar.
test.describe("axe on every state of /events", () => {
  test.use({ viewport: PHONE });

  test("loading: no violations at 375 and 1280 px", async ({ page }, testInfo) => {
    const release = await holdEventsData(page);
    await openEventsInApp(page);
    await expect(page.getByRole("status").filter({ hasText: "Loading events..." })).toBeVisible();
    await scanAtBothWidths(page, testInfo, "/events (loading)");
    release();
  });

  test("error: no violations at 375 and 1280 px", async ({ page, guard }, testInfo) => {
    await failEventsData(page, 502);
    await openEventsInApp(page);
    await expect(page.getByRole("alert").filter({ hasText: "Failed to load events from calendar." })).toBeVisible();
    await scanAtBothWidths(page, testInfo, "/events (error)");
    tolerateStatus(guard, 502);
  });

  test("stale copy: no violations at 375 and 1280 px", async ({ page }, testInfo) => {
    // A copy that expires at once (EVENTS_CACHE_TTL_SECONDS's least is a second).
    const { fake, server } = await startGoogleBackedServer("normal", { env: { TIMINGS: JSON.stringify({ calendarTtlMs: 100 }) } });
    try {
      await page.goto(`${server.url}/events`);
      fake.setScenario("error500");
      // The first request after expiry answers at once and refreshes in the background; once that
      // refresh has failed, the page is the stale copy. Asked for over plain HTTP until it is.
      const note = "The calendar could not be reached just now.";
      await expect.poll(async () => (await (await fetch(`${server.url}/events`)).text()).includes(note)).toBe(true);
      // A reload asks the server again, where a second visit could show the copy the browser keeps (as a visitor's would).
      await page.reload();
      await expect(page.getByText(note).locator("visible=true")).toHaveCount(1);
      // At 375 px the list is the compact one: an item per event, linking to its page.
      await expect(page.locator('main li:has(a[href^="/events/"]):visible').first()).toBeVisible();
      await scanAtBothWidths(page, testInfo, "/events (stale)");
    } finally {
      await page.close();
      await stopGoogleBackedServer({ fake, server });
    }
  });
});

test.describe("axe with the drawer open", () => {
  test.use({ viewport: PHONE });

  test("/ and /events with the drawer open have no violations", async ({ page }, testInfo) => {
    for (const path of ["/", "/events"]) {
      await test.step(path, async () => {
        await page.goto(path);
        await waitForHydration(page);
        await page.getByRole("button", { name: "Open menu" }).click();
        const drawer = page.getByRole("dialog", { name: "Menu" });
        await expect(drawer).toBeVisible();
        await expectNoAxeViolations(page, testInfo, `${path} (drawer open)`);
      });
    }
  });
});

test.describe("axe with a toast shown", () => {
  test.use({ viewport: DESKTOP });

  test("/contact with the blocked-tab toast has no violations", async ({ page }, testInfo) => {
    await showToast(page);
    await expectNoAxeViolations(page, testInfo, "/contact (toast)");
  });
});

test.describe("the gate itself", () => {
  test.use({ viewport: DESKTOP });

  test("reports violations readably when there are some", async ({ page }, testInfo) => {
    await page.goto("/about");
    await waitForHydration(page);
    // An image without alt text and a button without a name.
    await page.evaluate(() => {
      const main = document.getElementById("main")!;
      const img = document.createElement("img");
      img.src = "/favicon.svg";
      img.id = "broken-image";
      main.append(img, document.createElement("button"));
    });
    const error = await expectNoAxeViolations(page, testInfo, "/about (broken on purpose)").then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^axe found 2 WCAG 2\.2 AA violation\(s\) on \/about \(broken on purpose\):/);
    // Rule, impact, summary, where, and how to fix it.
    expect(error?.message).toMatch(
      /\[critical\] image-alt: Images must have alternative text \(https:[^)]+\)\n\s+- #broken-image\n\s+Fix any of the following: /,
    );
    expect(error?.message).toMatch(/\[critical\] button-name: Buttons must have discernible text/);
  });
});

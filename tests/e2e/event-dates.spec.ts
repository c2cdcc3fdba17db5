// Spec §8 through the real page: a date the calendar sends that cannot be parsed is shown as
// written; a missing one is 'TBD'. The server reads a fake Google Calendar over HTTP.
import type { FakeGoogleCalendar } from "../fakes/google-calendar";
import type { RunningServer } from "../support/start-server";
import type { Page } from "@playwright/test";
import { DESKTOP, expect, oneServerForTheGroup, test, waitForHydration } from "./fixtures";
import { startGoogleBackedServer, stopGoogleBackedServer } from "./support/google-server";
import { openEventsInApp } from "./support/events-api";

test.describe("event dates the calendar sends as it likes", () => {
  oneServerForTheGroup();

  test.use({ viewport: DESKTOP });
  let fake: FakeGoogleCalendar;
  let server: RunningServer;

  test.beforeAll(async () => {
    ({ fake, server } = await startGoogleBackedServer("oddItems"));
  });
  test.afterAll(() => stopGoogleBackedServer({ fake, server }));

  // A card's date follows its badge in the card's "when" line.
  const when = (page: Page, title: string) =>
    page.locator("main article").filter({ hasText: title }).locator(".event-card-when > :last-child");

  test("the API answers an unparseable start as written", async ({ request }) => {
    const body = (await (await request.get(`${server.url}/api/calendar/events`)).json()) as { events: { id: string; start?: unknown }[] };
    expect(body.events.find((e) => e.id === "unparseable")?.start).toEqual({ dateTime: "not-a-real-date", timeZone: "America/New_York" });
    expect(body.events.find((e) => e.id === "undated")?.start).toBeUndefined();
  });

  test("the page shows the raw value, and TBD for a missing start, before and after hydration", async ({ page }) => {
    await page.goto(`${server.url}/events`);
    await expect(when(page, "Founders dinner (date to be confirmed)")).toHaveText("not-a-real-date");
    await expect(when(page, "Founders picnic (date to come)")).toHaveText("TBD");
    await waitForHydration(page);
    await expect(when(page, "Founders dinner (date to be confirmed)")).toHaveText("not-a-real-date");
    await expect(when(page, "Founders picnic (date to come)")).toHaveText("TBD");
    // The good events keep their formatted dates.
    await expect(when(page, "Speaker Series: Pricing")).toHaveText(/^\w+day, \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s(AM|PM)\sE[SD]T$/);
  });

  test("client-side navigation (the list read from the page's data) shows the raw value too", async ({ page }) => {
    await openEventsInApp(page, server.url);
    await expect(when(page, "Founders dinner (date to be confirmed)")).toHaveText("not-a-real-date");
    await expect(when(page, "Founders picnic (date to come)")).toHaveText("TBD");
  });
});

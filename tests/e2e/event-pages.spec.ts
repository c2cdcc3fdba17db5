import type { APIRequestContext } from "@playwright/test";
import type { CalendarEvent } from "../../app/events/model";
import type { FakeGoogleCalendar } from "../fakes/google-calendar";
import { suiteClock } from "../support/clock";
import { inTab } from "../support/event-time";
import type { RunningServer } from "../support/start-server";
import { DESKTOP, PHONE, expect, oneServerForTheGroup, test, waitForHydration } from "./fixtures";
import { startGoogleBackedServer, stopGoogleBackedServer } from "./support/google-server";
import { scanAtBothWidths } from "./support/axe";
import { pageSettled } from "./support/settled";

// A page per event (issue 13): what each kind of event shows, in a browser, with and without JavaScript.

type ApiEvent = Pick<CalendarEvent, "id" | "summary" | "start" | "end">;

async function listed(request: APIRequestContext, base = ""): Promise<ApiEvent[]> {
  return ((await (await request.get(`${base}/api/calendar/events`)).json()) as { events: ApiEvent[] }).events;
}

// The tabs as the site makes them at the server's now (the run's clock): upcoming is not yet ended, soonest first.
const upcoming = (events: ApiEvent[]) => inTab(events, "upcoming", suiteClock().now());

test.describe("event pages (bundled sample calendar)", () => {
  test.use({ viewport: DESKTOP });

  test("an upcoming Members Only event: heading, badge, both downloads, RSVP at the portal, axe clean", async ({
    page,
    request,
  }, testInfo) => {
    const event = upcoming(await listed(request)).find((e) => /member/i.test(e.summary ?? ""))!;
    const response = await page.goto(`/events/${event.id}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(event.summary!);
    await expect(page.getByText("Members Only", { exact: true })).toBeVisible();
    await expect(page.getByText(/EST|EDT/).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Add to calendar (.ics)" })).toHaveAttribute(
      "href",
      `/api/calendar/events/${event.id}.ics`,
    );
    await expect(page.getByRole("link", { name: /^Google Calendar/ })).toHaveAttribute("target", "_blank");
    const rsvp = page.getByRole("link", { name: /RSVP in the member portal/ });
    await expect(rsvp).toHaveAttribute("target", "_blank");
    await expect(page.getByRole("heading", { name: "How to join" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Upcoming events" })).toHaveAttribute("href", "/events");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`/events/${event.id}$`));
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", new RegExp(`/events/${event.id}/og.png$`));
    await waitForHydration(page);
    await scanAtBothWidths(page, testInfo, "members-only event");
  });

  test("an Open event says how to join from its own details and shares by the clipboard with a toast", async ({
    page,
    request,
    context,
  }) => {
    const event = upcoming(await listed(request)).find((e) => e.summary === "Speaker Series Evening")!;
    await context.grantPermissions(["clipboard-write"]);
    await page.goto(`/events/${event.id}`);
    await expect(page.getByText("Open", { exact: true })).toBeVisible();
    const join = page.getByRole("region", { name: "How to join" });
    await expect(join.getByRole("link", { name: /Alumni Club/ })).toHaveAttribute("href", /google\.com\/maps\/search/);
    await expect(page.getByRole("link", { name: /RSVP/ })).toHaveCount(0);
    await waitForHydration(page);
    // Chromium headless has no Web Share API here: the link is copied instead.
    // The site refuses clipboard-read to itself (Permissions-Policy): record what is written instead.
    await page.evaluate(() => {
      Object.defineProperty(navigator, "share", { value: undefined });
      const write = navigator.clipboard.writeText.bind(navigator.clipboard);
      navigator.clipboard.writeText = (text: string) => {
        document.body.dataset.copied = text;
        return write(text);
      };
    });
    await page.getByRole("link", { name: "Share this event" }).click();
    await expect(page.getByText("Link copied", { exact: true })).toBeVisible();
    await expect(page.locator("body")).toHaveAttribute("data-copied", new RegExp(`^http://[^/]+/events/${event.id}$`));
    await expect(page).toHaveURL(new RegExp(`/events/${event.id}$`));
  });

  test("a past event is marked past, offers no download, and links to the upcoming events", async ({ page, request }, testInfo) => {
    const events = await listed(request);
    const past = inTab(events, "past", suiteClock().now())[0]!;
    await page.goto(`/events/${past.id}`);
    await expect(page.getByText(/^This event took place on /)).toBeVisible();
    await expect(page.getByRole("link", { name: /Add to calendar/ })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "See the upcoming events" })).toHaveAttribute("href", "/events");
    await expect(page.getByRole("link", { name: "Past events" })).toHaveAttribute("href", "/events?tab=past");
    await waitForHydration(page);
    await scanAtBothWidths(page, testInfo, "past event");
  });

  test("an all-day event shows its day exactly, without a time", async ({ page, request }) => {
    const event = upcoming(await listed(request)).find((e) => e.start && "date" in e.start)!;
    await page.goto(`/events/${event.id}`);
    const date = event.start && "date" in event.start ? event.start.date : "";
    const [year, month, day] = date.split("-").map(Number) as [number, number, number];
    const expected = new Intl.DateTimeFormat("en-US", {
      timeZone: "UTC",
      weekday: "long",
      year: "numeric",
      month: "long",
      day: "numeric",
    }).format(Date.UTC(year, month - 1, day));
    await expect(page.locator("header dl time").first()).toHaveText(new RegExp(`^${expected}`));
    await expect(page.locator("header dl time").first()).not.toHaveText(/AM|PM/);
  });

  test("the list links each title to its page; phones get the compact list grouped by month", async ({ page, request }) => {
    const first = upcoming(await listed(request))[0]!;
    await page.goto("/events");
    await page.locator("main article h3 a").first().click();
    await expect(page).toHaveURL(new RegExp(`/events/${first.id}$`));
    await page.setViewportSize(PHONE);
    await page.goto("/events");
    await expect(page.locator("main article").first()).toBeHidden();
    const month = page.getByRole("region", { name: /^[A-Z][a-z]+ \d{4}$/ }).first();
    await expect(month).toBeVisible();
    await expect(month.getByRole("link").first()).toHaveAttribute("href", /^\/events\/[\w-]+$/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
  });

  test("an unknown id is the site's 404 page", async ({ page, guard }) => {
    const response = await page.goto("/events/no-such-event");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    expect(guard.notFoundDocuments).toHaveLength(1);
  });
});

test.describe("event pages without JavaScript", () => {
  test.use({ viewport: PHONE, javaScriptEnabled: false });

  test("everything is there, and sharing is a plain link to the page", async ({ page, request }) => {
    const event = upcoming(await listed(request))[0]!;
    await page.goto(`/events/${event.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(event.summary!);
    const share = page.getByRole("link", { name: "Share this event" });
    await expect(share).toHaveAttribute("href", new RegExp(`/events/${event.id}$`));
    await share.click();
    await expect(page).toHaveURL(new RegExp(`/events/${event.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(event.summary!);
  });
});

test.describe("event pages from a calendar with hostile and untitled events", () => {
  oneServerForTheGroup();

  test.use({ viewport: DESKTOP });
  let fake: FakeGoogleCalendar;
  let server: RunningServer;

  test.beforeAll(async () => {
    ({ fake, server } = await startGoogleBackedServer("hostile"));
  });
  test.afterAll(() => stopGoogleBackedServer({ fake, server }));

  test("an event without a title is 'Untitled Event', its online link the way to join", async ({ page }, testInfo) => {
    await page.goto(`${server.url}/events/untitled`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Untitled Event");
    await expect(page.getByRole("region", { name: "How to join" }).getByRole("link", { name: /meet\.example\.org/ })).toHaveAttribute(
      "href",
      "https://meet.example.org/founders",
    );
    await waitForHydration(page);
    await scanAtBothWidths(page, testInfo, "untitled event");
  });

  test("a hostile description is text: no script runs, no dialog opens", async ({ page }) => {
    let dialogs = 0;
    page.on("dialog", (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    for (const id of ["hostile1", "hostile2", "hostile3"]) {
      await page.goto(`${server.url}/events/${id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Hostile/);
      await expect(
        page.locator("main script:not([type='application/ld+json']), main iframe, main img, main [onerror], main a[href^='javascript:']"),
      ).toHaveCount(0);
    }
    await waitForHydration(page);
    await page.getByText("Click me").click();
    await pageSettled(page);
    expect(dialogs).toBe(0);
  });
});

import type { Page } from "@playwright/test";
import { waitForHydration, type Guard } from "../fixtures";
import { withoutSpeculationRules } from "./no-speculation-rules";

// The /events page renders its list on the server for document requests; an in-app navigation to
// it (a browser without speculation rules) shows the page in its loading state and reads the
// route's own data (/events.data). Intercepting that request puts the page in its loading and
// error states without touching the server.

const EVENTS_DATA = /\/events\.data(\?|$)/;

/** Holds every request for the page's data until the returned function is called (the loading state). */
export async function holdEventsData(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(EVENTS_DATA, async (route) => {
    await held;
    await route.continue().catch(() => {}); // The page may be gone by the time it is released.
  });
  return release;
}

/** Answers the page's data with a failure, as a server or network gone down would. */
export async function failEventsData(page: Page, status = 502): Promise<void> {
  await page.route(EVENTS_DATA, (route) => route.fulfill({ status, contentType: "text/plain", body: "Bad Gateway" }));
}

/** Opens /events (Upcoming) by an in-app link from /about, as a browser without speculation rules does once React runs. */
export async function openEventsInApp(page: Page, origin = ""): Promise<void> {
  await page.addInitScript(withoutSpeculationRules);
  await page.goto(`${origin}/about`);
  await waitForHydration(page);
  await page.locator('a[href="/events"]:visible').first().click();
  await page.waitForURL(/\/events$/);
}

/** A deliberate failing answer logs one resource error; tolerate exactly that one. */
export function tolerateStatus(guard: Guard, status: number): void {
  const text = `Failed to load resource: the server responded with a status of ${status}`;
  for (let i = guard.issues.length - 1; i >= 0; i--) {
    if (guard.issues[i]!.text.startsWith(text) && guard.issues[i]!.url.includes("/events.data")) guard.issues.splice(i, 1);
  }
}

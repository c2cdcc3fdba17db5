import type { Page } from "@playwright/test";
import type { EventsResponse } from "~/events/model";
import { waitForHydration, type Guard } from "../fixtures";

// The /events page renders its list on the server for document requests; on client-side
// navigation it fetches /api/calendar/events. Intercepting that request puts the page in each
// of its states (loading, error, empty, stale) without touching the server.

const EVENTS_API = "**/api/calendar/events";

/** Holds every API request until the returned function is called (the loading state). */
export async function holdEventsApi(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(EVENTS_API, async (route) => {
    await held;
    await route.continue().catch(() => {}); // The page may be gone by the time it is released.
  });
  return release;
}

/** Answers the API with this body instead of the server's (empty or stale lists). */
export async function answerEventsApi(page: Page, body: Partial<EventsResponse>): Promise<void> {
  const full: EventsResponse = { events: [], stale: false, ...body };
  await page.route(EVENTS_API, (route) => route.fulfill({ json: full }));
}

/** Answers the API with a failure, as the server does once its calendar has been down too long. */
export async function failEventsApi(page: Page, status = 502): Promise<void> {
  await page.route(EVENTS_API, (route) =>
    route.fulfill({
      status,
      contentType: "application/json",
      body: JSON.stringify({ message: "The events calendar is unavailable right now." }),
    }),
  );
}

/** A real list, as the server answers it now, for building stale answers from. */
export async function currentEvents(page: Page): Promise<EventsResponse> {
  const response = await page.request.get("/api/calendar/events");
  if (!response.ok()) throw new Error(`GET /api/calendar/events answered ${response.status()}`);
  return (await response.json()) as EventsResponse;
}

/** Opens /events (Upcoming) by an in-app link, so the page fetches the API; at every width. */
export async function openEventsInApp(page: Page, origin = ""): Promise<void> {
  // Links between pages are document navigations (docs/decisions/instant-navigation.md); the
  // events tabs stay in-app, and a tab opened in-app reads the list from the API.
  await page.goto(`${origin}/events?tab=past`);
  await waitForHydration(page);
  await page.getByRole("navigation", { name: "Events" }).getByRole("link", { name: "Upcoming" }).click();
  await page.waitForURL(/\/events$/);
}

/** A deliberate failing API answer logs one resource error; tolerate exactly that one. */
export function tolerateStatus(guard: Guard, status: number): void {
  const text = `Failed to load resource: the server responded with a status of ${status}`;
  for (let i = guard.issues.length - 1; i >= 0; i--) {
    if (guard.issues[i]!.text.startsWith(text) && guard.issues[i]!.url.includes("/api/calendar/events")) guard.issues.splice(i, 1);
  }
}

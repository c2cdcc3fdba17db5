import type { Page } from "@playwright/test";

/** The calendar's list pages as /events links them: the page itself, its Past tab and every month of the archive. */
export async function listPages(page: Page, origin: string): Promise<{ events: string; past: string; months: string[] }> {
  await page.goto(`${origin}/events`);
  const months = await page
    .locator('nav[aria-labelledby="months-heading"] a')
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  return { events: "/events", past: "/events?tab=past", months };
}

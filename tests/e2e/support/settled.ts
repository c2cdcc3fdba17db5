// Conditions to wait for instead of time, for checks that something did NOT happen.
import type { Page } from "@playwright/test";

/**
 * The page has run every task queued so far and painted a frame: whatever an earlier action set off
 * in the page (a click's handlers, a navigation's requests, a violation report) has happened, and
 * its events have reached the test (the protocol keeps their order).
 */
export async function pageSettled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/** The page has been idle once: work it deferred until idle (requestIdleCallback) has run too. */
export async function pageIdle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
}

/** No animation is running: a screenshot shows the end state, not a frame of a transition. */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
}

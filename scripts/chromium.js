// @ts-check
// The Chromium every tool here drives (browser tests, the bench, the artwork renderer):
// Debian's unless CHROME_PATH says otherwise, headless-safe and quiet (no background traffic,
// no component or sync downloads).
import { existsSync } from "node:fs";

export const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";

/**
 * The browser tests' Chromium: Debian's headless shell (package chromium-headless-shell, built from the same
 * sources and version as chromium), the build Playwright itself runs headless tests in. It renders and runs
 * pages as the full browser does at about half its CPU (the suite in 4.5 min instead of 9.5 on two cores);
 * it has no back/forward cache, and after an idle callback it at times paints no further frame, so the tests of
 * those launch CHROME_PATH (tests/e2e/support/full-browser.ts).
 * CHROME_HEADLESS_SHELL_PATH names another; with only CHROME_PATH set, that browser runs everything.
 */
export const TEST_CHROME_PATH =
  process.env.CHROME_HEADLESS_SHELL_PATH ??
  (process.env.CHROME_PATH === undefined && existsSync("/usr/bin/chromium-headless-shell")
    ? "/usr/bin/chromium-headless-shell"
    : CHROME_PATH);

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

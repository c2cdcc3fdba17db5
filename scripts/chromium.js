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

/**
 * The browser tests' Chromium stays on this machine: every request to another host goes to a "proxy" on a loopback
 * port nothing listens on (9, discard, below the ports the system hands out), so it fails at once
 * (net::ERR_PROXY_CONNECTION_FAILED), and no host name but localhost resolves. Loopback is bypassed: the site is
 * reached directly. Refused in the browser, not intercepted in the test's process (tests/e2e/fixtures.ts): an
 * intercepted request makes a round trip to the test's process (about 0.15 s of CPU a page load and hydration), and
 * interception turns the browser's cache off, which a visitor's has on.
 */
export const OFFLINE_FLAGS = [
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=127.0.0.1;localhost;[::1]",
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
];

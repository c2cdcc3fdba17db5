// @ts-check
// The one Chromium every tool here drives (browser tests, the bench, the artwork renderer):
// Debian's unless CHROME_PATH says otherwise, headless-safe and quiet (no background traffic,
// no component or sync downloads).

export const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

import type { LaunchOptions } from "@playwright/test";
import { CHROME_PATH, CHROMIUM_FLAGS, OFFLINE_FLAGS } from "../../../scripts/chromium.js";

/**
 * The full Chromium (CHROME_PATH), for a file whose tests need what the headless shell the others run in lacks or does
 * differently (scripts/chromium.js): use it with test.use({ launchOptions: FULL_BROWSER }). Its back/forward cache is
 * on, as in a visitor's browser (Playwright turns it off by default). One set of options for every such file, so that
 * their tests share the workers that launch it (a worker per set of options, each with a browser of its own).
 */
export const FULL_BROWSER: LaunchOptions = {
  executablePath: CHROME_PATH,
  args: [...CHROMIUM_FLAGS, ...OFFLINE_FLAGS],
  ignoreDefaultArgs: ["--disable-back-forward-cache"],
};

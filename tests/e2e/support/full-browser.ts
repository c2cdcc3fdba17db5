import type { LaunchOptions } from "@playwright/test";
import { CHROME_PATH, CHROMIUM_FLAGS } from "../../../scripts/chromium.js";

/**
 * The full Chromium (CHROME_PATH), for a file whose tests need what the headless shell the others run in lacks or does
 * differently (scripts/chromium.js): use it with test.use({ launchOptions: fullBrowser() }).
 */
export function fullBrowser(options: Pick<LaunchOptions, "ignoreDefaultArgs"> = {}): LaunchOptions {
  return { executablePath: CHROME_PATH, args: CHROMIUM_FLAGS, ...options };
}

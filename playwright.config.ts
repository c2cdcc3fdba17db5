import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_FLAGS, OFFLINE_FLAGS, TEST_CHROME_PATH } from "./scripts/chromium.js";
import { suiteClock } from "./tests/support/clock";

// Browser tests run against the real production server (server.js) on a free loopback port.
// The port is chosen once, when the runner first loads this file; worker processes inherit
// E2E_PORT through the environment, so they all agree on the same baseURL.
function freePort(): string {
  return execFileSync(
    process.execPath,
    [
      "-e",
      `const s = require("node:net").createServer();
       s.listen(0, "127.0.0.1", () => { process.stdout.write(String(s.address().port)); s.close(); });`,
    ],
    { encoding: "utf8" },
  ).trim();
}

process.env.E2E_PORT ??= freePort();
const port = process.env.E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;
const CI = process.env.CI === "true" || process.env.CI === "1";

// SKIP_BUILD=1 reuses an existing build (e.g. CI builds once before unit and browser tests).
const command = process.env.SKIP_BUILD === "1" ? "node server.js" : "npm run build && node server.js";

// Screenshots of every page (tests/e2e/screenshots.spec.ts) are taken only on request.
const SHOTS = process.env.E2E_SHOTS === "1";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  testIgnore: SHOTS ? [] : ["**/screenshots.spec.ts", "**/editor-shots.spec.ts"],
  fullyParallel: true,
  forbidOnly: CI,
  // No retries: a test that fails once is a failure to fix at its cause, never a quiet pass.
  retries: 0,
  // Half again as many workers as cores: a test waits on its server, on the network going quiet or on a fake's gate
  // for about a tenth of its time, which a third worker on two cores fills (the suite 223 -> 207 s there; four
  // workers took 217 s).
  workers: Math.ceil(availableParallelism() * 1.5),
  reporter: "list",
  // Most tests take 1-5 s on a quiet two-core machine; this is the net for a hang. A test that needs
  // longer says so, and why, beside its own limit.
  timeout: 30_000,
  expect: { timeout: 5_000 },
  outputDir: "test-results",
  use: {
    baseURL,
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    // An action waits for its element: the editor's list comes once it has read the repository
    // (1-2 s on a quiet machine, 4-5 s on this busy one).
    actionTimeout: 10_000,
    // A page of this site loads in well under a second; the editor's 1.5 MB of script, in a few.
    navigationTimeout: 10_000,
    // A trace records every action of every test (a fifth of the suite's time), so it is off; a failure keeps its
    // screenshot. To trace one: npx playwright test tests/e2e/x.spec.ts --trace retain-on-failure.
    trace: "off",
    screenshot: "only-on-failure",
    serviceWorkers: "block",
    launchOptions: {
      executablePath: TEST_CHROME_PATH,
      // Every request that would leave the machine fails in the browser itself.
      args: [...CHROMIUM_FLAGS, ...OFFLINE_FLAGS],
    },
  },
  webServer: {
    command,
    url: `${baseURL}/`,
    // Every browser request comes from loopback: lift the rate limits (tested in tests/integration). No share card is
    // drawn ahead (about 4 s of CPU at start; no browser test asks for one, tests/integration/share-cards.test.ts does).
    // It runs at the run's moment (tests/support/clock.ts), as every test server does: the tests read now from the same clock.
    env: {
      ...suiteClock().env,
      SHARE_CARDS_AHEAD: "0",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: port,
      RATE_LIMIT_PER_MINUTE: "100000",
      PAGE_RATE_LIMIT_PER_MINUTE: "10000000",
      SPECULATIVE_RATE_LIMIT_PER_MINUTE: "10000000",
    },
    reuseExistingServer: !CI,
    // Without SKIP_BUILD the command builds first (a minute or two); a start alone takes seconds.
    timeout: process.env.SKIP_BUILD === "1" ? 60_000 : 180_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});

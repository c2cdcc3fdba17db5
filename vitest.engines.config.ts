import { defineConfig } from "vitest/config";

// The core flows in WebKit and Gecko (tests/engines): `npm run test:engines`. Apart from `npm test`'s
// suite: its own server, its own browsers, one test file per engine.
export default defineConfig({
  test: {
    include: ["tests/engines/**/*.test.ts"],
    environment: "node",
    // Builds unless SKIP_BUILD=1 (as npm test), then starts the one production server both engines visit.
    globalSetup: ["tests/setup/build-once.ts", "tests/engines/setup/server.ts"],
    // Both engines at once: most of a flow is waiting on a browser, so two overlap well even on 2 cores.
    maxWorkers: 2,
    // A flow loads up to three pages and waits up to 10 s for each condition (support/engine.ts's cause);
    // Playwright's 30 s per test, as tests/e2e.
    testTimeout: 30_000,
    // Starting an engine: Firefox took 9 s on a 2-core machine under a load of 14 (WebKit 4 s).
    hookTimeout: 60_000,
    retry: 0,
    reporters: ["verbose", "./tests/engines/summary-reporter.ts"],
  },
});

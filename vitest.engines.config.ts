import { defineConfig } from "vitest/config";

// The core flows in WebKit and Gecko (tests/engines): `npm run test:engines`. Apart from `npm test`'s
// suite: its own server, its own browsers, one test file per engine.
export default defineConfig({
  test: {
    include: ["tests/engines/**/*.test.ts"],
    environment: "node",
    // Builds unless SKIP_BUILD=1 (as npm test), then starts the one production server both engines visit.
    globalSetup: ["tests/setup/build-once.ts", "tests/engines/setup/server.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    retry: 0,
    reporters: ["verbose", "./tests/engines/summary-reporter.ts"],
  },
});

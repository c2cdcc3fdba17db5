import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { contentEditor } from "./app/content/editor-plugin.server";
import { siteContent } from "./app/content/plugin.server";

// Tests that load the machine (load) or time answers against a bound (fuzz, fault) run on their
// own, after everything else, one file at a time.
const STRESS = ["tests/integration/fault.test.ts", "tests/integration/fuzz.test.ts", "tests/integration/load.test.ts"];

export default defineConfig({
  // Tests read the shipped content as the pages do (virtual:site-content).
  plugins: [siteContent(), contentEditor()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    environment: "node",
    // The integration suite builds once and starts real servers (the root and each project run
    // this setup; it builds the first time only).
    globalSetup: ["tests/setup/build-once.ts"],
    // Integration tests start built servers, make requests and wait on conditions: a few seconds on a
    // quiet machine, ten times that when several servers start at once on a shared, busy one (the
    // limits only say how long a broken test takes to fail; a start has 60 s: tests/support/start-server.ts).
    testTimeout: 60_000,
    hookTimeout: 90_000,
    projects: [
      {
        extends: true,
        test: {
          name: "tests",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/{unit,integration}/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...STRESS],
          // After the build: one server for the files that only read from a default one.
          globalSetup: ["tests/setup/shared-server.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "stress",
          include: STRESS,
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          // fault.test.ts's faults, each with a server of its own: two at a time, one per core.
          maxConcurrency: 2,
        },
      },
    ],
  },
});

import { availableParallelism } from "node:os";
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
    // Vitest's default (cores − 1) runs one file at a time on two cores, one core idle while a file
    // waits on its servers; two at once keep both busy. The stress project stays one at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The integration suite builds once and starts real servers (the root and each project run
    // this setup; it builds the first time only).
    globalSetup: ["tests/setup/build-once.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // A worker runs its files one after another in one module graph, not a fresh process each: the
          // imports are made once (the project's 63 files: 86 -> 50 s of CPU). So no file may lean on another's
          // state: check with --sequence.shuffle.files (five shuffled orders passed when this was set).
          isolate: false,
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/unit/**/*.test.ts"],
          // In memory or against a fake on loopback: milliseconds on a quiet machine, a few seconds on
          // a shared busy one. The few that do more say so beside their own limit.
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          // As the unit project's: its files share nothing but the run's shared server (-8 s a run).
          isolate: false,
          include: ["tests/integration/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...STRESS],
          // After the build: one server for the files that only read from a default one.
          globalSetup: ["tests/setup/shared-server.ts"],
          // A test that loads the server bundle in its own process (two-sites.test.ts) loads it as server.js does, by
          // Node: Vitest's module runner hands a second concurrent import() of a chunk still evaluating its
          // unfinished exports (React Router's server build read as undefined: a 500 at random).
          server: { deps: { external: [/\/build\/server\//] } },
          // Built servers started (a start has 60 s: tests/support/start-server.ts), requests made and
          // conditions waited for: a few seconds on a quiet machine, ten times that when several servers
          // start at once on a shared busy one. The limits only say how long a broken test takes to fail.
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: "stress",
          include: STRESS,
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          // As the integration tests'.
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // fault.test.ts's faults, each with a server of its own: two at a time, one per core.
          maxConcurrency: 2,
        },
      },
    ],
  },
});

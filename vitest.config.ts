import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/{unit,integration}/**/*.test.ts"],
    environment: "node",
    // The integration suite builds once and starts real servers.
    globalSetup: ["tests/setup/build-once.ts"],
    testTimeout: 20_000,
    hookTimeout: 180_000,
  },
});

import { spawnSync } from "node:child_process";

// The integration tests run the real production build; build it once per test run.
// SKIP_BUILD=1 reuses an existing build (CI builds once before unit and browser tests).
export default function setup(): void {
  if (process.env.SKIP_BUILD === "1") return;
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const env = { ...process.env, NODE_ENV: "production" };
  const result = spawnSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", env });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stderr}`);
}

import { spawnSync } from "node:child_process";
import { suiteClock } from "../support/clock";

// The integration tests run the real production build; build it once per test run.
// SKIP_BUILD=1 reuses an existing build (CI builds once before unit and browser tests).
export default function setup(): void {
  // The run's moment, fixed before any worker starts: every test and server of the run reads the same now.
  suiteClock();
  // Vitest runs the global setup once for the root and once per test project, one after the other.
  if (process.env.SKIP_BUILD === "1" || process.env.BUILT_FOR_THIS_RUN === "1") return;
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const env = { ...process.env, NODE_ENV: "production" };
  const result = spawnSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", env });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stderr}`);
  process.env.BUILT_FOR_THIS_RUN = "1";
}

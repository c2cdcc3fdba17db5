// @ts-check
// Runs a command with its whole process tree at a moment: `node scripts/test-at.js 2027-03-14T06:30:00Z -- npm test`.
// The tests' own process, their servers and Vitest's workers all read that moment as now (libfaketime: see
// docs/decisions/test-clock.md), and TEST_MOMENT names it as the run's moment (tests/support/clock.ts), so
// the run is the suite as it would run on that day. A verdict that changes with the moment is a bug.
import { spawnSync } from "node:child_process";
import { faketimeEnv, instantOf } from "./faketime.js";

const [moment, separator, command, ...args] = process.argv.slice(2);
if (!moment || separator !== "--" || !command) {
  console.error("usage: node scripts/test-at.js <instant, e.g. 2027-03-14T06:30:00Z> -- <command> [args…]");
  process.exit(2);
}
let at;
try {
  at = instantOf(moment);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
/** @type {NodeJS.ProcessEnv} */
const env = { ...process.env, ...faketimeEnv(at - Date.now()), TEST_MOMENT: moment };
// A run's clock is fixed by its first process (tests/support/clock.ts): not by an outer run's.
delete env.TEST_SUITE_CLOCK;
console.log(`::: ${command} ${args.join(" ")} at ${new Date(at).toISOString()} (${moment})`);
const result = spawnSync(command, args, { stdio: "inherit", env });
process.exit(result.status ?? 1);

// @ts-check
// The benchmark's settings: defaults from issues 4 and 10, overridable by the BENCH_* variables documented at the top of index.js. Read
// once, here, so the other modules stay pure.

/** The path that must answer 404; Lighthouse is told not to abort on its status. */
export const NOT_FOUND_PATH = "/no-such-page";

export const DEFAULT_ROUTES = ["/", "/apply", "/about", "/contact", "/events", "/portal", NOT_FOUND_PATH];

/**
 * The sections to run (index.js SECTIONS, by name), Lighthouse's routes and runs per route (medians are reported), and the serving loads'
 * seconds and client connections.
 * @typedef {{ sections: string[], routes: string[], runs: number, durationSeconds: number, connections: number }} BenchConfig
 */

/** @param {string | undefined} value @param {number} fallback @param {string} name */
function positiveInteger(value, fallback, name) {
  if (value === undefined || value === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a positive integer (got "${value}").`);
  return number;
}

/**
 * A comma-separated list, each entry checked.
 * @param {string | undefined} value @param {string} name @param {(entry: string) => boolean} valid @param {string} expected
 */
function list(value, name, valid, expected) {
  const entries = (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) if (!valid(entry)) throw new Error(`${name} takes ${expected} (got "${entry}").`);
  return entries;
}

/** @param {NodeJS.ProcessEnv} env @param {string[]} sectionNames */
export function readConfig(env, sectionNames) {
  const names = `${sectionNames.map((name) => `"${name}"`).join(", ")}, comma-separated`;
  const only = list(env.BENCH_ONLY, "BENCH_ONLY", (name) => sectionNames.includes(name), names);
  const skip = list(env.BENCH_SKIP, "BENCH_SKIP", (name) => sectionNames.includes(name), names);
  const routes = list(env.BENCH_ROUTES, "BENCH_ROUTES", (route) => route.startsWith("/"), 'paths starting with "/"');
  /** @type {BenchConfig} */
  const config = {
    sections: sectionNames.filter((name) => (only.length === 0 || only.includes(name)) && !skip.includes(name)),
    routes: routes.length > 0 ? routes : DEFAULT_ROUTES,
    runs: positiveInteger(env.BENCH_RUNS, 3, "BENCH_RUNS"),
    durationSeconds: positiveInteger(env.BENCH_DURATION, 10, "BENCH_DURATION"),
    connections: positiveInteger(env.BENCH_CONNECTIONS, 50, "BENCH_CONNECTIONS"),
  };
  return config;
}

// @ts-check
// The benchmark's settings, overridable by the BENCH_* variables documented at the top of index.js. Read once, here, so the other modules
// stay pure.

/** The path that must answer 404; Lighthouse is told not to abort on its status. */
export const NOT_FOUND_PATH = "/no-such-page";

/** This month's page of the events archive (New York time): the bundled sample's series have events every month. */
export function archivePath(now = Date.now()) {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", year: "numeric", month: "2-digit" }).formatToParts(now);
  const part = (/** @type {string} */ type) => parts.find((p) => p.type === type)?.value ?? "";
  return `/events/month/${part("year")}-${part("month")}`;
}

const DEFAULT_ROUTES = ["/", "/apply", "/about", "/contact", "/events", archivePath(), "/portal", NOT_FOUND_PATH];

/**
 * The sections to run (index.js SECTIONS, by name), Lighthouse's routes, runs per route or trip (medians are reported), and the serving
 * loads' seconds and client connections.
 * @typedef {{ sections: string[], routes: string[], runs: number, durationSeconds: number, connections: number }} BenchConfig
 */

/** @param {NodeJS.ProcessEnv} env @param {string[]} sectionNames @returns {BenchConfig} */
export function readConfig(env, sectionNames) {
  /** @param {string} name @param {number} fallback */
  const positive = (name, fallback) => {
    const value = env[name];
    if (value === undefined || value === "") return fallback;
    if (!/^[1-9]\d*$/.test(value)) throw new Error(`${name} must be a positive integer (got "${value}").`);
    return Number(value);
  };
  /** A comma-separated list, each entry checked. @param {string} name @param {(entry: string) => boolean} valid @param {string} expected */
  const list = (name, valid, expected) => {
    const entries = (env[name] ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    for (const entry of entries) if (!valid(entry)) throw new Error(`${name} takes ${expected} (got "${entry}").`);
    return entries;
  };
  const names = `${sectionNames.map((name) => `"${name}"`).join(", ")}, comma-separated`;
  const only = list("BENCH_ONLY", (name) => sectionNames.includes(name), names);
  const skip = list("BENCH_SKIP", (name) => sectionNames.includes(name), names);
  const routes = list("BENCH_ROUTES", (route) => route.startsWith("/"), 'paths starting with "/"');
  return {
    sections: sectionNames.filter((name) => (only.length === 0 || only.includes(name)) && !skip.includes(name)),
    routes: routes.length > 0 ? routes : DEFAULT_ROUTES,
    runs: positive("BENCH_RUNS", 3),
    durationSeconds: positive("BENCH_DURATION", 10),
    connections: positive("BENCH_CONNECTIONS", 50),
  };
}

// @ts-check
// The benchmark's settings: defaults from issues 4 and 10, overridable by the BENCH_* variables
// documented at the top of index.js. Read once, here, so the other modules stay pure.

/** The path that must answer 404; Lighthouse is told not to abort on its status. */
export const NOT_FOUND_PATH = "/no-such-page";

export const DEFAULT_ROUTES = ["/", "/apply", "/about", "/contact", "/events", "/portal", NOT_FOUND_PATH];

/**
 * @typedef {object} BenchConfig
 * @property {string[]} routes Lighthouse routes.
 * @property {number} runs Lighthouse runs per route (the median is reported).
 * @property {boolean} lighthouse Whether to run Lighthouse.
 * @property {boolean} serving Whether to run the serving loads.
 * @property {boolean} weight Whether to weigh /events for a small and a 3,000-event calendar.
 * @property {boolean} calendar Whether to run the calendar's production situations (calendar.js).
 * @property {boolean} cards Whether to time the first request of every event's share card (share-cards.js).
 * @property {boolean} navigation Whether to time clicks from page to page (navigation.js).
 * @property {boolean} anchor Whether to run Lighthouse on the static anchor beside ours (navigation.js).
 * @property {number} durationSeconds Seconds per load.
 * @property {number} connections Load client connections.
 */

/**
 * @param {string | undefined} value
 * @param {number} fallback
 * @param {string} name
 */
function positiveInteger(value, fallback, name) {
  if (value === undefined || value === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a positive integer (got "${value}").`);
  return number;
}

const SKIPPABLE = ["lighthouse", "serving", "weight", "calendar", "cards", "navigation", "anchor"];

/** @param {NodeJS.ProcessEnv} env */
export function readConfig(env) {
  const skip = new Set(
    (env.BENCH_SKIP ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  );
  for (const part of skip) {
    if (!SKIPPABLE.includes(part)) throw new Error(`BENCH_SKIP takes ${SKIPPABLE.map((name) => `"${name}"`).join(", ")} (got "${part}").`);
  }
  const routes = env.BENCH_ROUTES
    ? env.BENCH_ROUTES.split(",")
        .map((route) => route.trim())
        .filter(Boolean)
    : DEFAULT_ROUTES;
  for (const route of routes) {
    if (!route.startsWith("/")) throw new Error(`BENCH_ROUTES entries are paths starting with "/" (got "${route}").`);
  }
  /** @type {BenchConfig} */
  const config = {
    routes,
    runs: positiveInteger(env.BENCH_RUNS, 3, "BENCH_RUNS"),
    lighthouse: !skip.has("lighthouse"),
    serving: !skip.has("serving"),
    weight: !skip.has("weight"),
    calendar: !skip.has("calendar"),
    cards: !skip.has("cards"),
    navigation: !skip.has("navigation"),
    anchor: !skip.has("anchor") && !skip.has("lighthouse"),
    durationSeconds: positiveInteger(env.BENCH_DURATION, 10, "BENCH_DURATION"),
    connections: positiveInteger(env.BENCH_CONNECTIONS, 50, "BENCH_CONNECTIONS"),
  };
  return config;
}

// @ts-check
// A crawler walks every share card of a 3,000-event calendar as Google sends them (about 46 kB each, some 138 MB: over twice the pages'
// whole budget) and `/` must not notice (issue 29): images have a budget of their own, and the static pages a store of their own. Read
// through the server's own metrics listener (METRICS_PORT): the pages' renders, misses and evictions before and after, and GET / timed
// before and after the crawl (the first request after it would pay for a render had `/` been pushed out). Alone: `BENCH_ONLY=crawl npm run bench`.
import http from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fakeWith } from "./calendar-support.js";
import { json, rawGet } from "./http.js";
import { checksOf, checksTable } from "./report.js";
import { scrape, startProductionServer, sumOf } from "./server.js";
import { percentile } from "./stats.js";

/** GET / requests timed before and after the crawl. */
const HOME_REQUESTS = 500;
/** Cards asked for at once: the drawing process draws one at a time, the crawler keeps it busy. */
const CRAWLERS = 4;
/** After the crawl, GET / may be this much slower at p95 (the machine is shared: noise). */
const SLOWER_AT_MOST = 1.5;
const mb = (/** @type {number} */ bytes) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** The stores' figures, from one scrape of the server's metrics. @param {import("./server.js").RunningServer} server */
async function storeFigures(server) {
  const metrics = await scrape(server);
  const of = (/** @type {string} */ field, /** @type {string[]} */ kinds) =>
    kinds.reduce((sum, kind) => sum + sumOf(metrics, `stored_answers_${field}`, `kind="${kind}"`), 0);
  const pages = ["static", "pages"];
  return {
    pageRenders: of("renders_total", pages),
    pageMisses: of("misses_total", pages),
    pageEvictions: of("evictions_total", pages),
    imageEvictions: of("evictions_total", ["images"]),
    imageBytes: of("bytes", ["images"]),
    rssBytes: sumOf(metrics, "process_resident_memory_bytes"),
  };
}

/** GET / HOME_REQUESTS times on one keep-alive connection: the first answer's time and the p95, in ms. @param {string} origin */
async function timeHome(origin) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  /** @type {number[]} */
  const ms = [];
  try {
    while (ms.length < HOME_REQUESTS) {
      const started = performance.now();
      const answer = await rawGet(`${origin}/`, { "Accept-Encoding": "br" }, 10_000, agent);
      if (answer.status !== 200) throw new Error(`GET / answered ${answer.status}`);
      ms.push(performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
  return { first: ms[0] ?? 0, p95: percentile(ms, 95) };
}

/** @param {string} logDir */
async function crawl(logDir) {
  const fake = await fakeWith(3_000);
  // The shipped budgets; no cards drawn ahead: the crawl is the only drawing.
  const env = { ...fake.env, METRICS_PORT: "0", SHARE_CARDS_AHEAD: "0" };
  const server = await startProductionServer({ logFile: join(logDir, "share-crawl.log"), env });
  try {
    /** @type {{ id: string }[]} */
    const events = (await json(`${server.origin}/api/calendar/events`)).events;
    const homeBefore = await timeHome(server.origin);
    const before = await storeFigures(server);
    const started = performance.now();
    let [cards, cardBytes, next] = [0, 0, 0];
    const crawler = async () => {
      for (let event; (event = events[next++]);) {
        const answer = await rawGet(`${server.origin}/events/${event.id}/og.png`, {}, 60_000);
        if (answer.status === 200 && answer.rawHeaders.includes("image/png")) cards++;
        cardBytes += answer.body.length;
      }
    };
    await Promise.all(Array.from({ length: CRAWLERS }, crawler));
    const crawlSeconds = (performance.now() - started) / 1000;
    const afterCrawl = await storeFigures(server);
    const homeAfter = await timeHome(server.origin);
    return {
      events: events.length,
      cards,
      cardBytes,
      crawlSeconds,
      homeBefore,
      homeAfter,
      before,
      afterCrawl,
      after: await storeFigures(server),
    };
  } finally {
    await server.stop();
    await fake.close();
  }
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "crawl",
  title: "A crawl of every share card",
  async run({ logDir }) {
    const r = await crawl(logDir);
    const [before, after] = [r.before, r.after];
    /** @type {import("./report.js").Check[]} */
    const checks = [];
    const at = checksOf("share card crawl", checks);
    const crawled = `${r.cards} of ${r.events} (${mb(r.cardBytes)} in ${r.crawlSeconds.toFixed(0)} s)`;
    at("cards of a 3,000-event calendar crawled", crawled, "every event's card, 200 image/png", r.events >= 3000 && r.cards === r.events);
    const renders = after.pageRenders - before.pageRenders;
    const misses = after.pageMisses - before.pageMisses;
    at("pages rendered by GET / after the crawl", `${renders} (misses: ${misses})`, "0", renders === 0 && misses === 0);
    const evictions = after.pageEvictions - before.pageEvictions;
    const images = `images evicted: ${r.afterCrawl.imageEvictions - before.imageEvictions}, held ${mb(r.afterCrawl.imageBytes)}`;
    at("pages evicted", `${evictions} (${images})`, "0", evictions === 0);
    const allowed = r.homeBefore.p95 * SLOWER_AT_MOST + 1;
    const p95 = `${r.homeAfter.p95.toFixed(2)} ms (before: ${r.homeBefore.p95.toFixed(2)} ms; first after ${r.homeAfter.first.toFixed(2)} ms)`;
    at(
      `GET / p95 after the crawl (${HOME_REQUESTS} requests)`,
      p95,
      `≤ ${SLOWER_AT_MOST}× before + 1 ms (${allowed.toFixed(2)} ms)`,
      r.homeAfter.p95 <= allowed,
    );
    const note =
      `Every event's card asked for once by ${CRAWLERS} crawlers at a time, with the shipped budgets; the server's own metrics. ` +
      `Resident memory ${mb(before.rssBytes)} before, ${mb(r.afterCrawl.rssBytes)} after the crawl.`;
    return { lines: [checksTable(checks), "", note], checks, record: r };
  },
};

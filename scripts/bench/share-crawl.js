// @ts-check
/* global fetch -- Node 20 has it */
// A crawler walks every share card of a 3,000-event calendar (as Google sends them, from the tests' fake) (about 46 kB each, some 138 MB: over
// twice the pages' whole budget) and `/` must not notice (issue 29): images have a budget of their
// own, and the static pages a store of their own. Read through the server's own metrics listener
// (METRICS_PORT): the pages' renders, misses and evictions before and after, and GET / timed
// before and after the crawl (the first request after it, which would pay for a render had `/`
// been pushed out, and the next 500).
// Alone: `BENCH_ONLY=crawl npm run bench`.
import http from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generated, scrape, startFake, sumOf } from "./calendar-support.js";
import { rawGet } from "./http.js";
import { checksTable, table } from "./report.js";
import { startProductionServer } from "./server.js";
import { percentile } from "./stats.js";
import { formatMs } from "./targets.js";

/** GET / requests timed before and after the crawl. */
const HOME_REQUESTS = 500;
/** Cards asked for at once: the drawing worker draws one at a time, the crawler keeps it busy. */
const CRAWLERS = 4;
/** After the crawl, GET / may be this much slower at p95 (the machine is shared: noise). */
const SLOWER_AT_MOST = 1.5;

/** The store's and the process's figures, from one scrape of the server's metrics. @param {import("./server.js").RunningServer} server */
async function storeFigures(server) {
  const text = await scrape(server);
  /** @param {string} field @param {string} kind */
  const stored = (field, kind) => sumOf(text, `stored_answers_${field}`, `kind="${kind}"`);
  /** @param {string} field */
  const pages = (field) => stored(field, "static") + stored(field, "pages");
  return {
    pageRenders: pages("renders_total"),
    pageMisses: pages("misses_total"),
    pageEvictions: pages("evictions_total"),
    pageBytes: pages("bytes"),
    imageRenders: stored("renders_total", "images"),
    imageEvictions: stored("evictions_total", "images"),
    imageBytes: stored("bytes", "images"),
    imageBudget: stored("budget_bytes", "images"),
    rssBytes: sumOf(text, "process_resident_memory_bytes"),
  };
}

/** GET / `count` times on one keep-alive connection; each answer's time in ms. @param {string} origin @param {number} count */
async function timeHome(origin, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  /** @type {number[]} */
  const ms = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const answer = await rawGet(`${origin}/`, { "Accept-Encoding": "br" }, 10_000, agent);
      ms.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`GET / answered ${answer.status}`);
    }
  } finally {
    agent.destroy();
  }
  return ms;
}

/** @param {number[]} ms */
const summary = (ms) => ({ first: ms[0] ?? 0, p50: percentile(ms, 50), p95: percentile(ms, 95), max: percentile(ms, 100) });

/**
 * @typedef {object} CrawlResult
 * @property {number} events
 * @property {number} cards Cards answered 200 image/png.
 * @property {number} cardBytes
 * @property {number} crawlSeconds
 * @property {ReturnType<typeof summary>} homeBefore
 * @property {ReturnType<typeof summary>} homeAfter
 * @property {Awaited<ReturnType<typeof storeFigures>>} before Metrics before the crawl (after GET / was timed).
 * @property {Awaited<ReturnType<typeof storeFigures>>} afterCrawl
 * @property {Awaited<ReturnType<typeof storeFigures>>} after After GET / was timed again.
 */

/** @param {{ logDir: string }} options @returns {Promise<CrawlResult>} */
export async function measureShareCrawl({ logDir }) {
  const feed = await startFake();
  feed.setEvents(await generated(3_000, Date.now()));
  try {
    const server = await startProductionServer({
      logFile: join(logDir, "share-crawl.log"),
      // The shipped budgets; no cards drawn ahead: the crawl is the only drawing.
      env: { ...feed.env, METRICS_PORT: "0", SHARE_CARDS_AHEAD: "0" },
    });
    try {
      /** @type {{ id: string }[]} */
      const events = (await (await fetch(`${server.origin}/api/calendar/events`)).json()).events;
      const homeBefore = summary(await timeHome(server.origin, HOME_REQUESTS));
      const before = await storeFigures(server);

      const started = performance.now();
      let cards = 0;
      let cardBytes = 0;
      let next = 0;
      const crawler = async () => {
        while (next < events.length) {
          const event = /** @type {{ id: string }} */ (events[next++]);
          const answer = await rawGet(`${server.origin}/events/${event.id}/og.png`, {}, 60_000);
          if (answer.status === 200 && answer.rawHeaders.includes("image/png")) cards++;
          cardBytes += answer.body.length;
        }
      };
      await Promise.all(Array.from({ length: CRAWLERS }, crawler));
      const crawlSeconds = (performance.now() - started) / 1000;
      const afterCrawl = await storeFigures(server);

      const homeAfter = summary(await timeHome(server.origin, HOME_REQUESTS));
      const after = await storeFigures(server);
      return { events: events.length, cards, cardBytes, crawlSeconds, homeBefore, homeAfter, before, afterCrawl, after };
    } finally {
      await server.stop();
    }
  } finally {
    await feed.close();
  }
}

/** @param {CrawlResult} r @returns {import("./targets.js").Check[]} */
export function crawlChecks(r) {
  const renders = r.after.pageRenders - r.before.pageRenders;
  const misses = r.after.pageMisses - r.before.pageMisses;
  const evictions = r.after.pageEvictions - r.before.pageEvictions;
  const allowed = r.homeBefore.p95 * SLOWER_AT_MOST + 1;
  return [
    {
      scope: "share card crawl",
      metric: "Cards of a 3,000-event calendar crawled",
      value: r.cards,
      shown: `${r.cards} of ${r.events} (${(r.cardBytes / 1e6).toFixed(1)} MB in ${r.crawlSeconds.toFixed(0)} s)`,
      target: "every event's card, 200 image/png",
      pass: r.events >= 3000 && r.cards === r.events,
    },
    {
      scope: "share card crawl",
      metric: "Pages rendered by GET / after the crawl (stored_answers_renders_total{kind=static,pages})",
      value: renders,
      shown: `${renders} (misses: ${misses})`,
      target: "0",
      pass: renders === 0 && misses === 0,
    },
    {
      scope: "share card crawl",
      metric: "Pages evicted (stored_answers_evictions_total{kind=static,pages})",
      value: evictions,
      shown: `${evictions} (images evicted: ${r.afterCrawl.imageEvictions - r.before.imageEvictions})`,
      target: "0",
      pass: evictions === 0,
    },
    {
      scope: "share card crawl",
      metric: `GET / p95 after the crawl (${HOME_REQUESTS} requests)`,
      value: r.homeAfter.p95,
      shown: `${r.homeAfter.p95.toFixed(2)} ms (before: ${r.homeBefore.p95.toFixed(2)} ms)`,
      target: `≤ ${SLOWER_AT_MOST}× before + 1 ms (${allowed.toFixed(2)} ms)`,
      pass: r.homeAfter.p95 <= allowed,
    },
  ];
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "crawl",
  title: "A crawl of every share card",
  async run({ logDir }) {
    const r = await measureShareCrawl({ logDir });
    const checks = crawlChecks(r);
    const ms = (/** @type {number} */ value) => `${value.toFixed(2)} ms`;
    const row = (/** @type {string} */ moment, /** @type {ReturnType<typeof summary>} */ t) => [
      moment,
      ms(t.first),
      ms(t.p50),
      ms(t.p95),
      formatMs(t.max),
    ];
    const mb = (/** @type {number} */ bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
    return {
      lines: [
        table(
          ["GET / (one keep-alive connection)", "first", "p50", "p95", "max"],
          [row("before the crawl", r.homeBefore), row("after", r.homeAfter)],
        ),
        "",
        table(
          ["metrics", "before", "after the crawl", "after GET / again"],
          [
            ["pages rendered", r.before.pageRenders, r.afterCrawl.pageRenders, r.after.pageRenders],
            ["pages missed", r.before.pageMisses, r.afterCrawl.pageMisses, r.after.pageMisses],
            ["pages evicted", r.before.pageEvictions, r.afterCrawl.pageEvictions, r.after.pageEvictions],
            ["pages held", mb(r.before.pageBytes), mb(r.afterCrawl.pageBytes), mb(r.after.pageBytes)],
            ["images rendered", r.before.imageRenders, r.afterCrawl.imageRenders, r.after.imageRenders],
            ["images evicted", r.before.imageEvictions, r.afterCrawl.imageEvictions, r.after.imageEvictions],
            [
              "images held (budget)",
              mb(r.before.imageBytes),
              `${mb(r.afterCrawl.imageBytes)} (${mb(r.afterCrawl.imageBudget)})`,
              mb(r.after.imageBytes),
            ],
            ["resident memory", mb(r.before.rssBytes), mb(r.afterCrawl.rssBytes), mb(r.after.rssBytes)],
          ],
        ),
        "",
        `Every event's card asked for once by ${CRAWLERS} crawlers at a time, with the shipped budgets (STORED_PAGES_MB 64, ` +
          "STORED_IMAGES_MB 32); the figures are the server's own metrics listener's.",
        "",
        checksTable(checks),
      ],
      checks,
      record: r,
    };
  },
};

// @ts-check
// The events lists at a community calendar's size (issue 37), against the tests' fake Google Calendar API with 3,000 and with 6,000
// events as Google sends them (1.5 KB rich descriptions): a visitor's crawl from /events through every list page a plain link reaches
// (both tabs and every archive page), one request at a time, each list page's first answer timed (the first request for it on a
// server that has read the calendar: what a visitor or a crawler after a change waits for), its HTML weighed, and the events it links
// counted against the API's. The retired `?all=1` is checked to answer a redirect. Alone: `BENCH_ONLY=lists npm run bench`.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fakeWith } from "./calendar-support.js";
import { NO_CALENDAR, headerOf, json, rawGet, until } from "./http.js";
import { crawlListPages, eventPagesLinked } from "./list-crawl.js";
import { checksOf, checksTable, table } from "./report.js";
import { startProductionServer } from "./server.js";
import { median } from "./stats.js";

/** Issue 37's targets for every list view under /events. */
const MAX_HTML_BYTES = 300 * 1024;
const MAX_FIRST_ANSWER_MS = 1_000;
const MAX_LIST_PAGES = 400;
const SIZES = [3_000, 6_000];

const kB = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(0)} KB`;

/** @typedef {{ path: string, htmlBytes: number, brotliBytes: number, firstMs: number }} ListPage */

/**
 * Every list page reached from /events by links (list-crawl.js), each asked for once with a browser's Accept-Encoding
 * (its first answer: time and brotli bytes), then once uncompressed (its HTML); and the event pages they link.
 * @param {string} origin
 */
async function crawl(origin) {
  /** @type {ListPage[]} */
  const pages = [];
  const html = await crawlListPages(async (path) => {
    const sent = performance.now();
    const first = await rawGet(`${origin}${path}`, { "Accept-Encoding": "gzip, deflate, br, zstd" }, 60_000);
    const firstMs = performance.now() - sent;
    if (first.status !== 200) throw new Error(`${path} answered ${first.status}`);
    const plain = (await rawGet(`${origin}${path}`, { "Accept-Encoding": "identity" }, 60_000)).body;
    const brotli = headerOf(first, "content-encoding") === "br" ? first.body.length : Number.NaN;
    pages.push({ path, htmlBytes: plain.length, brotliBytes: brotli, firstMs });
    return plain.toString("utf8");
  });
  return { pages, linked: eventPagesLinked(html.values()) };
}

/** One calendar size: a fresh server on the fake, the calendar read, then the crawl. @param {number} count @param {string} logDir */
async function measure(count, logDir) {
  const fake = await fakeWith(count);
  const server = await startProductionServer({ logFile: join(logDir, `lists-${count}.log`), env: { ...NO_CALENDAR, ...fake.env } });
  try {
    await until(
      `${server.logFile}: the calendar read`,
      async () => (await json(`${server.origin}/readyz`)).events?.state === "fresh",
      120_000,
    );
    /** @type {{ events: { id: string }[] }} */
    const { events } = await json(`${server.origin}/api/calendar/events`);
    const { pages, linked } = await crawl(server.origin);
    const unlinked = events.filter((event) => !linked.has(`/events/${event.id}`)).map((event) => event.id);
    const retired = await rawGet(`${server.origin}/events?tab=past&all=1`);
    return { count, events: events.length, pages, unlinked, retired: `${retired.status} → ${headerOf(retired, "location")}` };
  } finally {
    await server.stop();
    await fake.close();
  }
}

/** @param {ListPage[]} pages @param {(page: ListPage) => number} figure */
const largest = (pages, figure) => pages.reduce((top, page) => (figure(page) > figure(top) ? page : top));

/** @type {import("./report.js").Section} */
export const section = {
  name: "lists",
  title: "The events lists at 3,000 and 6,000 events",
  async run({ logDir }) {
    const results = [];
    for (const count of SIZES) results.push(await measure(count, logDir));
    /** @type {import("./report.js").Check[]} */
    const checks = [];
    const rows = [];
    for (const r of results) {
      const heaviest = largest(r.pages, (page) => page.htmlBytes);
      const slowest = largest(r.pages, (page) => page.firstMs);
      const at = checksOf(`lists, ${r.count.toLocaleString("en-US")} events (${r.events} listed)`, checks);
      at(
        "every list view's HTML, the heaviest",
        `${kB(heaviest.htmlBytes)} (${heaviest.path})`,
        `≤ ${kB(MAX_HTML_BYTES)}`,
        heaviest.htmlBytes <= MAX_HTML_BYTES,
      );
      at(
        "every list view's first answer, the slowest",
        `${slowest.firstMs.toFixed(0)} ms (${slowest.path})`,
        `≤ ${MAX_FIRST_ANSWER_MS} ms`,
        slowest.firstMs <= MAX_FIRST_ANSWER_MS,
      );
      at(
        "events linked from some list page",
        `${r.events - r.unlinked.length} of ${r.events}${r.unlinked.length ? ` (not: ${r.unlinked.slice(0, 3).join(", ")}…)` : ""}`,
        "all",
        r.unlinked.length === 0 && r.events === r.count,
      );
      at("list pages reached from /events", r.pages.length, `≤ ${MAX_LIST_PAGES}`, r.pages.length <= MAX_LIST_PAGES);
      for (const path of ["/events", "/events?tab=past"]) {
        const page = r.pages.find((candidate) => candidate.path === path);
        if (page) rows.push([r.count, path, kB(page.htmlBytes), kB(page.brotliBytes), `${page.firstMs.toFixed(0)} ms`]);
      }
      const archive = r.pages.filter((page) => page.path.startsWith("/events/month/"));
      const medianOf = (/** @type {(page: ListPage) => number} */ figure) => median(archive.map(figure)) ?? Number.NaN;
      rows.push([
        r.count,
        `${archive.length} archive pages (median)`,
        kB(medianOf((page) => page.htmlBytes)),
        kB(medianOf((page) => page.brotliBytes)),
        `${medianOf((page) => page.firstMs).toFixed(0)} ms`,
      ]);
      rows.push([r.count, "/events?tab=past&all=1 (retired)", r.retired, "", ""]);
    }
    return {
      lines: [
        checksTable(checks),
        "",
        table(["Events", "Page", "HTML", "brotli", "First answer"], rows),
        "",
        "A crawl from /events through every link to a list page, one request at a time; the first request for each page is timed " +
          "(/events and its Past tab are prepared when the calendar changes, the archive pages rendered when first asked for).",
      ],
      checks,
      record: results,
    };
  },
};

// @ts-check
// How fast a link preview gets an event's share card (issue 20: 0.65 to 1.7 s before, drawn on the request path): the first request for
// every listed event's card, with the bundled sample calendar and with the tests' awkward calendar (long words and URLs, and titles in nine
// scripts and emoji, whose fonts load on first use). Each calendar gets a fresh server; its cards are asked for one at a time, as a crawler
// does, in three moments:
//   1. at once after the calendar's first read, while the upcoming cards are still being drawn ahead;
//   2. the upcoming events, once the cards drawn ahead are done;
//   3. every other listed event (past, or past the 30 drawn ahead): drawn on request.
// Meanwhile /healthz is asked every 25 ms: drawing must not hold the event loop. Alone: `BENCH_ONLY=cards npm run bench`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { NO_CALENDAR, rawGet, serveIcs, until } from "./http.js";
import { checksOf, checksTable, table } from "./report.js";
import { startProductionServer } from "./server.js";
import { percentile } from "./stats.js";

const formatMs = (/** @type {number} */ ms) => `${Math.round(ms)} ms`;

/** Every listed event's first card request answers within this. */
const FIRST_CARD_MS = 500;
/** A probe of the event loop while cards are drawn. */
const HEALTH_DURING_DRAWING_MS = 100;

/** @typedef {{ count: number, p50: number, p95: number, max: number, notOk: number }} Timings notOk: answers that were not a 200 PNG. */

/** @param {number[]} values @returns {Timings} */
const timings = (values, notOk = 0) => ({
  count: values.length,
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  max: Math.max(...values),
  notOk,
});

/** @param {string} url */
async function timedGet(url) {
  const started = performance.now();
  const answer = await rawGet(url, {}, 15_000);
  return { ms: performance.now() - started, answer };
}

/** Asks /healthz every 25 ms until the returned function is called; it gives the answers' times. @param {string} origin */
function probeHealth(origin) {
  /** @type {number[]} */
  const times = [];
  let running = true;
  const done = (async () => {
    for (; running; await sleep(25)) times.push((await timedGet(`${origin}/healthz`)).ms);
  })();
  return async () => ((running = false), await done, times);
}

/** @param {string} calendar @param {Record<string, string>} env @param {string} logFile */
async function measureCalendar(calendar, env, logFile) {
  const server = await startProductionServer({ logFile, env: { ...env, LOG_LEVEL: "debug", SITE_URL: "https://founders.example.org" } });
  let stopProbe = async () => /** @type {number[]} */ ([]);
  try {
    // The calendar's first read is not the cards' work: the event loop is probed from its answer on.
    const { answer } = await timedGet(`${server.origin}/api/calendar/events`);
    stopProbe = probeHealth(server.origin);
    /** @type {{ id: string, start?: { dateTime?: string, date?: string } }[]} */
    const events = JSON.parse(answer.body.toString("utf8")).events;
    const startOf = (/** @type {typeof events[number]} */ e) => Date.parse(e.start?.dateTime ?? `${e.start?.date}T12:00:00Z`);
    const upcoming = events.filter((e) => startOf(e) > Date.now());
    const firstRequests = async (/** @type {typeof events} */ list) => {
      /** @type {number[]} */
      const ms = [];
      let notOk = 0;
      for (const event of list) {
        const { ms: took, answer: card } = await timedGet(`${server.origin}/events/${event.id}/og.png`);
        ms.push(took);
        if (card.status !== 200 || card.body.readUInt32BE(16) !== 1200) notOk++;
      }
      return timings(ms, notOk);
    };
    // 1: the upcoming cards from last to first, at once: the last ones are still queued (or never drawn ahead) and jump the queue.
    const halfway = Math.ceil(upcoming.length / 2);
    const whileDrawingAhead = await firstRequests(upcoming.slice(halfway).reverse());
    await until("the share cards drawn ahead", () => readFileSync(logFile, "utf8").includes('"msg":"drew share cards ahead"'));
    const drawnAhead = await firstRequests(upcoming.slice(0, halfway));
    const onRequest = await firstRequests(events.filter((e) => !upcoming.includes(e)));
    return { calendar, events: events.length, whileDrawingAhead, drawnAhead, onRequest, health: timings(await stopProbe()) };
  } finally {
    await stopProbe();
    await server.stop();
  }
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "cards",
  title: "Share cards",
  async run({ logDir }) {
    const feed = await serveIcs(readFileSync(new URL("../../tests/fixtures/awkward-events.ics", import.meta.url), "utf8"));
    const results = [];
    try {
      results.push(await measureCalendar("bundled sample", NO_CALENDAR, join(logDir, "share-cards-sample.log")));
      const awkward = { ...NO_CALENDAR, CALENDAR_ICS_URL: feed.url };
      results.push(await measureCalendar("awkward (9 scripts, emoji, long words)", awkward, join(logDir, "share-cards-awkward.log")));
    } finally {
      await feed.close();
    }
    /** @type {import("./report.js").Check[]} */
    const checks = [];
    for (const r of results) {
      const cards = [r.whileDrawingAhead, r.drawnAhead, r.onRequest];
      const max = Math.max(...cards.map((t) => t.max));
      const notOk = cards.reduce((sum, t) => sum + t.notOk, 0);
      const at = checksOf(`share cards, ${r.calendar}`, checks);
      const slowest = `${formatMs(max)} (${r.events} events, ${notOk} not a 200 PNG)`;
      at("slowest first request of a listed event's card", slowest, `< ${FIRST_CARD_MS} ms, all 200`, max < FIRST_CARD_MS && notOk === 0);
      const health = `${formatMs(r.health.max)} (p95 ${formatMs(r.health.p95)}, ${r.health.count} probes)`;
      at("slowest /healthz while cards are drawn", health, `< ${HEALTH_DURING_DRAWING_MS} ms`, r.health.max < HEALTH_DURING_DRAWING_MS);
    }
    const cell = (/** @type {Timings} */ t) => `${t.count}: p50 ${formatMs(t.p50)}, p95 ${formatMs(t.p95)}, max ${formatMs(t.max)}`;
    const header = ["calendar", "while drawing ahead", "drawn ahead", "drawn on request", "/healthz meanwhile"];
    const rows = results.map((r) => [r.calendar, cell(r.whileDrawingAhead), cell(r.drawnAhead), cell(r.onRequest), cell(r.health)]);
    const note =
      "First request of each listed event's card, one at a time (count: p50, p95, max): the second half of the upcoming events at once " +
      "after the calendar's first read, the first half once the cards drawn ahead are done, then every other event. /healthz every 25 ms meanwhile.";
    return { lines: [table(header, rows), "", note, "", checksTable(checks)], checks, record: results };
  },
};

// @ts-check
// The calendar at its real size and age (issue 28), against the tests' fake Google Calendar API and an .ics feed on loopback:
//   weight    3,000 events as Google sends them: the API's JSON, and its first brotli answer after the calendar changes (the first
//             request that gets the new version).
//   series    five daily series running since 1990 beside a weekly one from this month: all listed.
//   memory    the bundled sample and 3,000 events, in two servers of the same run: every view a first visit lands on, in each encoding,
//             and a share card, then 60 s at rest, then every page of the events archive (resident memory).
// Alone: `BENCH_ONLY=calendar-scale npm run bench`.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fakeWith, generated } from "./calendar-support.js";
import { NO_CALENDAR, get, json, serveIcs, text, until } from "./http.js";
import { crawlListPages } from "./list-crawl.js";
import { checksOf, checksTable } from "./report.js";
import { residentBytes, scrape, startProductionServer, sumOf } from "./server.js";

const MB = 1_048_576;
const DAY = 86_400_000;
const mb = (/** @type {number} */ bytes) => `${(bytes / MB).toFixed(1)} MB`;

/** @typedef {import("./server.js").RunningServer} RunningServer */

/** @param {string} logDir @param {string} name @param {Record<string, string>} env */
const start = (logDir, name, env) => startProductionServer({ logFile: join(logDir, `calendar-scale-${name}.log`), env });

/** Situation 1: 3,000 events as Google sends them; the API's weight, then a change. @param {string} logDir */
async function weight(logDir) {
  const fake = await fakeWith(3_000);
  const changed = await generated(3_001, Date.now());
  const server = await start(logDir, "weight", { ...fake.env, EVENTS_CACHE_TTL_SECONDS: "1" });
  try {
    const api = `${server.origin}/api/calendar/events`;
    const [identity, brotli, gzip] = [await get(api, {}), await get(api), await get(api, { "Accept-Encoding": "gzip" })];
    fake.setEvents(changed);
    // Every request after the copy's second starts a read; the first one answered the new version is timed.
    const firstBrotliMs = await until("the API answering the changed calendar", async () => {
      const sent = performance.now();
      const answer = await get(api);
      if (answer.status === 200 && answer.etag !== brotli.etag) return performance.now() - sent;
      await sleep(50);
    });
    const events = JSON.parse(identity.body.toString()).events.length;
    return { events, jsonBytes: identity.body.length, brotliBytes: brotli.body.length, gzipBytes: gzip.body.length, firstBrotliMs };
  } finally {
    await server.stop();
    await fake.close();
  }
}

/** An iCalendar feed: five daily series since 1990 and a weekly dinner from the start of this month. @param {number} now */
function seriesFeed(now) {
  const stamp = (/** @type {number} */ ms) => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, "");
  const month = new Date(now);
  month.setUTCDate(1);
  const daily = ["Standup", "Office hours", "Lunch table", "Reading room", "Evening call"];
  const series = [
    ...daily.map((name, i) => ({ name, start: Date.UTC(1990, 0, 1 + i, 14 + i), rule: "FREQ=DAILY" })),
    { name: "Weekly dinner", start: month.getTime() + 19 * 3_600_000, rule: "FREQ=WEEKLY" },
  ];
  const events = series.map(({ name, start, rule }, i) =>
    [`BEGIN:VEVENT`, `UID:series-${i}@bench`, `DTSTAMP:${stamp(now)}`, `DTSTART:${stamp(start)}`, `DTEND:${stamp(start + 3_600_000)}`]
      .concat([`RRULE:${rule}`, `SUMMARY:${name}`, "END:VEVENT"])
      .join("\r\n"),
  );
  const ics = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN", ...events, "END:VCALENDAR", ""].join("\r\n");
  return { names: series.map((s) => s.name), ics };
}

/** Situation 2: long-running series beside a new one. @param {string} logDir */
async function series(logDir) {
  const now = Date.now();
  const { names, ics } = seriesFeed(now);
  const feed = await serveIcs(ics);
  const server = await start(logDir, "series", { ...NO_CALENDAR, CALENDAR_ICS_URL: feed.url });
  try {
    /** @type {{ events: { summary?: string }[] }} */
    const { events } = await json(`${server.origin}/api/calendar/events`);
    const counts = names.map((name) => ({ name, occurrences: events.filter((event) => event.summary === name).length }));
    // A year each side: a daily series has about 730 in the window; the weekly one every week from this month on.
    const weeksAhead = Math.floor((365 * DAY - (now % (30 * DAY))) / (7 * DAY));
    return { counts, complete: counts.every(({ name, occurrences }) => occurrences >= (name === "Weekly dinner" ? weeksAhead : 700)) };
  } finally {
    await server.stop();
    await feed.close();
  }
}

/** Waits until the server has read its calendar and drawn the share cards it draws ahead. @param {RunningServer} server */
const settled = (server) =>
  until(`${server.logFile}: the calendar read and its share cards drawn`, async () => {
    const ready = await json(`${server.origin}/readyz`);
    return ready.events?.state === "fresh" && sumOf(await scrape(server), "share_cards_waiting") === 0;
  });

// Every page a first visit lands on; every page of the events archive after (the month pages /events links).
const FIRST_VIEWS = [
  "/",
  "/apply",
  "/about",
  "/contact",
  "/portal",
  "/events",
  "/events?tab=past",
  "/api/calendar/events",
  "/sitemap.xml",
  "/no-such-page",
];
/** The archive's pages a crawler reaches from /events (list-crawl.js): each month, and the parts of a busy one. @param {RunningServer} server */
async function archivePages(server) {
  const pages = await crawlListPages((path) => text(`${server.origin}${path}`));
  return [...pages.keys()].filter((path) => path.startsWith("/events/month/"));
}

/** Each view in each encoding. @param {RunningServer} server @param {string[]} paths */
async function serve(server, paths) {
  for (const encoding of ["br", "gzip", "identity"])
    for (const path of paths) await get(`${server.origin}${path}`, { "Accept-Encoding": encoding });
}

/** Situation 3: resident memory with the bundled sample and with 3,000 events, in the same run. @param {string} logDir */
async function memory(logDir) {
  const fake = await fakeWith(3_000);
  const sample = await start(logDir, "memory-sample", { ...NO_CALENDAR, METRICS_PORT: "0" });
  const busy = await start(logDir, "memory-3000", { ...fake.env, METRICS_PORT: "0" });
  const resident = () => ({ sample: residentBytes(sample.pid), busy: residentBytes(busy.pid) });
  try {
    for (const server of [sample, busy]) {
      await settled(server);
      await serve(server, FIRST_VIEWS);
      const id = /href="\/events\/([^"/?]+)"/.exec(await text(`${server.origin}/events`))?.[1];
      if (id) await serve(server, [`/events/${id}`, `/events/${id}/og.png`]);
      await settled(server);
    }
    const served = resident();
    await sleep(60_000);
    const rested = resident();
    for (const server of [sample, busy]) await serve(server, await archivePages(server));
    return { served, rested, all: resident() };
  } finally {
    await sample.stop();
    await busy.stop();
    await fake.close();
  }
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "calendar-scale",
  title: "The calendar at its size and age",
  async run({ logDir }) {
    const result = { weight: await weight(logDir), series: await series(logDir), memory: await memory(logDir) };
    const { weight: w, series: s, memory: m } = result;
    /** @type {import("./report.js").Check[]} */
    const checks = [];
    const api = checksOf(`3,000 events as Google sends them (${w.events} listed): the API`, checks);
    api("JSON", `${mb(w.jsonBytes)} (brotli ${mb(w.brotliBytes)}, gzip ${mb(w.gzipBytes)})`, "< 2 MB", w.jsonBytes < 2 * MB);
    api("first brotli answer after a change", `${w.firstBrotliMs.toFixed(0)} ms`, "< 500 ms", w.firstBrotliMs < 500);
    const listed = s.counts.map(({ name, occurrences }) => `${name} ${occurrences}`).join(", ");
    checksOf("series since 1990 beside a new one", checks)("occurrences in the window", listed, "all 6 series", s.complete);
    const extra = m.served.busy - m.served.sample;
    const memoryOf = checksOf("resident memory", checks);
    const against = `3,000 events (${mb(m.served.busy)}) against the sample (${mb(m.served.sample)})`;
    memoryOf(`every first view in each encoding and a share card: ${against}`, `+${mb(extra)}`, "≤ +50 MB", extra <= 50 * MB);
    memoryOf(
      `the sample after 60 s at rest (3,000 events: ${mb(m.rested.busy)})`,
      mb(m.rested.sample),
      "< 200 MB",
      m.rested.sample < 200 * MB,
    );
    const all = `Then every page of the events archive in each encoding: the sample ${mb(m.all.sample)}, 3,000 events ${mb(m.all.busy)}.`;
    return { lines: [checksTable(checks), "", all], checks, record: result };
  },
};

// @ts-check
// The calendar at its real size and age (issue 28), against the tests' fake Google Calendar API and
// an .ics feed on loopback, each figure beside its target:
//   weight    3,000 events as Google sends them: the API's JSON, and its first brotli answer after
//             the calendar changes (the first request that gets the new version).
//   series    five daily series running since 1990 beside a weekly one from this month: all listed.
//   memory    the bundled sample and 3,000 events, in two servers of the same run: every list view
//             in each encoding and a share card, then 60 s at rest (resident memory).
// Alone: `BENCH_ONLY=calendar-scale npm run bench`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { generated, get, metricSum, startFake } from "./calendar-support.js";
import { NO_CALENDAR, serveIcs } from "./http.js";
import { checksTable, table } from "./report.js";
import { startProductionServer } from "./server.js";

const MB = 1_048_576;
const DAY = 86_400_000;

/** @typedef {import("./targets.js").Check} Check */
/** @typedef {import("./server.js").RunningServer} RunningServer */

/** @param {string} logDir @param {string} name @param {Record<string, string>} env */
const start = (logDir, name, env) => startProductionServer({ logFile: join(logDir, `calendar-scale-${name}.log`), env });

/** Resident memory of a process, from /proc (bytes). @param {number} pid */
function residentBytes(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Waits until the server has read its calendar and drawn the share cards it draws ahead. @param {RunningServer} server */
async function settled(server) {
  for (let tries = 0; tries < 600; tries++) {
    const ready = JSON.parse((await get(`${server.origin}/readyz`, {})).body.toString());
    if (ready.events?.state === "fresh" && (await metricSum(server, "share_cards_waiting")) === 0) return;
    await sleep(100);
  }
  throw new Error(`${server.logFile}: the calendar was not read, or its share cards not drawn, within a minute`);
}

/** Situation 1: 3,000 events as Google sends them; the API's weight, then a change. */
async function weight(/** @type {string} */ logDir) {
  const fake = await startFake();
  const now = Date.now();
  fake.setEvents(await generated(3_000, now));
  const changed = await generated(3_001, now);
  const server = await start(logDir, "weight", { ...fake.env, EVENTS_CACHE_TTL_SECONDS: "1" });
  try {
    const api = `${server.origin}/api/calendar/events`;
    const identity = await get(api, {});
    const brotli = await get(api);
    const gzip = await get(api, { "Accept-Encoding": "gzip" });
    fake.setEvents(changed);
    const changedAt = performance.now();
    // Every request after the copy's second starts a read; the first one answered the new version is timed.
    for (;;) {
      const sent = performance.now();
      const answer = await get(api);
      if (answer.etag !== brotli.etag && answer.status === 200) {
        return {
          events: JSON.parse(identity.body.toString()).events.length,
          jsonBytes: identity.body.length,
          brotliBytes: brotli.body.length,
          gzipBytes: gzip.body.length,
          firstBrotliMs: performance.now() - sent,
          sinceChangeMs: performance.now() - changedAt,
        };
      }
      if (performance.now() - changedAt > 60_000) throw new Error("the API never answered the changed calendar");
      await sleep(50);
    }
  } finally {
    await server.stop();
    await fake.close();
  }
}

/** An iCalendar feed: five daily series since 1990 and a weekly dinner from the start of this month. */
function seriesFeed(/** @type {number} */ now) {
  const stamp = (/** @type {Date} */ date) =>
    date
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  const month = new Date(now);
  month.setUTCDate(1);
  const series = [
    ...["Standup", "Office hours", "Lunch table", "Reading room", "Evening call"].map((name, i) => ({
      uid: `daily-${i}@bench`,
      name,
      start: new Date(Date.UTC(1990, 0, 1 + i, 14 + i)),
      rule: "FREQ=DAILY",
    })),
    { uid: "weekly-dinner@bench", name: "Weekly dinner", start: new Date(month.getTime() + 19 * 3_600_000), rule: "FREQ=WEEKLY" },
  ];
  const events = series.map(({ uid, name, start, rule }) =>
    [
      "BEGIN:VEVENT",
      `UID:${uid}`,
      `DTSTAMP:${stamp(new Date(now))}`,
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(new Date(start.getTime() + 3_600_000))}`,
      `RRULE:${rule}`,
      `SUMMARY:${name}`,
      "END:VEVENT",
    ].join("\r\n"),
  );
  return {
    names: series.map((s) => s.name),
    text: ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN", ...events, "END:VCALENDAR", ""].join("\r\n"),
  };
}

/** Situation 2: long-running series beside a new one. */
async function series(/** @type {string} */ logDir) {
  const now = Date.now();
  const { names, text } = seriesFeed(now);
  const feed = await serveIcs(text);
  const server = await start(logDir, "series", { ...NO_CALENDAR, CALENDAR_ICS_URL: feed.url });
  try {
    /** @type {{ events: { summary?: string }[] }} */
    const { events } = JSON.parse((await get(`${server.origin}/api/calendar/events`, {})).body.toString());
    const counts = names.map((name) => ({ name, occurrences: events.filter((event) => event.summary === name).length }));
    // A year each side: a daily series has about 730 in the window; the weekly one every week from this month on.
    const weeksAhead = Math.floor((365 * DAY - (now % (30 * DAY))) / (7 * DAY));
    const expected = (/** @type {string} */ name) => (name === "Weekly dinner" ? weeksAhead : 700);
    return { counts, complete: counts.every(({ name, occurrences }) => occurrences >= expected(name)) };
  } finally {
    await server.stop();
    await feed.close();
  }
}

// Every page a first visit lands on; the lists' "show all" views (every event in one page, 20 MB of
// HTML with 3,000 events) are measured after, on their own.
const LIST_VIEWS = [
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
const ALL_VIEWS = ["/events?all=1", "/events?tab=past&all=1"];

/** Each view in each encoding. @param {RunningServer} server @param {string[]} paths */
async function serve(server, paths) {
  for (const encoding of ["br", "gzip", "identity"])
    for (const path of paths) await get(`${server.origin}${path}`, { "Accept-Encoding": encoding });
}

/** Every view in each encoding, then one event's page and share card. @param {RunningServer} server */
async function serveEveryView(server) {
  await serve(server, LIST_VIEWS);
  const ids = [...(await get(`${server.origin}/events`, {})).body.toString().matchAll(/href="\/events\/([^"/?]+)"/g)].map((m) => m[1]);
  if (ids[0]) {
    await get(`${server.origin}/events/${ids[0]}`);
    await get(`${server.origin}/events/${ids[0]}/og.png`, {});
  }
}

/** Situation 3: resident memory with the bundled sample and with 3,000 events, in the same run. */
async function memory(/** @type {string} */ logDir) {
  const fake = await startFake();
  fake.setEvents(await generated(3_000, Date.now()));
  const sample = await start(logDir, "memory-sample", { ...NO_CALENDAR, METRICS_PORT: "0" });
  const busy = await start(logDir, "memory-3000", { ...fake.env, METRICS_PORT: "0" });
  try {
    for (const server of [sample, busy]) {
      await settled(server);
      await serveEveryView(server);
      await settled(server);
    }
    const served = { sample: residentBytes(sample.pid), busy: residentBytes(busy.pid) };
    await sleep(60_000);
    const rested = { sample: residentBytes(sample.pid), busy: residentBytes(busy.pid) };
    for (const server of [sample, busy]) await serve(server, ALL_VIEWS);
    const all = { sample: residentBytes(sample.pid), busy: residentBytes(busy.pid) };
    return { served, rested, all };
  } finally {
    await sample.stop();
    await busy.stop();
    await fake.close();
  }
}

const mb = (/** @type {number} */ bytes) => `${(bytes / MB).toFixed(1)} MB`;
const ms = (/** @type {number} */ value) => `${value.toFixed(0)} ms`;

/** @param {{ weight: Awaited<ReturnType<typeof weight>>, series: Awaited<ReturnType<typeof series>>, memory: Awaited<ReturnType<typeof memory>> }} result @returns {Check[]} */
function checks({ weight: w, series: s, memory: m }) {
  const extra = m.served.busy - m.served.sample;
  return [
    {
      scope: "3,000 events: the API",
      metric: `JSON (${w.events} events)`,
      value: w.jsonBytes,
      shown: mb(w.jsonBytes),
      target: "< 2 MB",
      pass: w.jsonBytes < 2 * MB,
    },
    {
      scope: "3,000 events: the API",
      metric: `first brotli answer after a change (${ms(w.sinceChangeMs)} after the change)`,
      value: w.firstBrotliMs,
      shown: ms(w.firstBrotliMs),
      target: "< 500 ms",
      pass: w.firstBrotliMs < 500,
    },
    {
      scope: "series since 1990 beside a new one",
      metric: "series listed with their occurrences in the window",
      value: s.counts.filter(({ occurrences }) => occurrences > 0).length,
      shown: s.counts.map(({ name, occurrences }) => `${name} ${occurrences}`).join(", "),
      target: "all 6",
      pass: s.complete,
    },
    {
      scope: "memory, every view served and a share card",
      metric: `3,000 events (${mb(m.served.busy)}) against the sample (${mb(m.served.sample)})`,
      value: extra,
      shown: `+${mb(extra)}`,
      target: "≤ +50 MB",
      pass: extra <= 50 * MB,
    },
    {
      scope: "memory, the sample after 60 s at rest",
      metric: "resident",
      value: m.rested.sample,
      shown: mb(m.rested.sample),
      target: "< 200 MB",
      pass: m.rested.sample < 200 * MB,
    },
  ];
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "calendar-scale",
  title: "The calendar at its size and age",
  async run({ logDir }) {
    const result = { weight: await weight(logDir), series: await series(logDir), memory: await memory(logDir) };
    const found = checks(result);
    const { weight: w, memory: m } = result;
    return {
      lines: [
        checksTable(found),
        "",
        table(
          ["3,000 events as Google sends them", "the API's answer"],
          [
            ["JSON", mb(w.jsonBytes)],
            ["brotli", mb(w.brotliBytes)],
            ["gzip", mb(w.gzipBytes)],
          ],
        ),
        "",
        table(
          ["Resident memory", "the bundled sample", "3,000 events"],
          [
            ["every view served in each encoding, a share card", mb(m.served.sample), mb(m.served.busy)],
            ["then 60 s at rest", mb(m.rested.sample), mb(m.rested.busy)],
            ['then both lists\' "show all" views in each encoding', mb(m.all.sample), mb(m.all.busy)],
          ],
        ),
      ],
      checks: found,
      record: result,
    };
  },
};

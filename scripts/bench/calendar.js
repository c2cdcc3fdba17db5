// @ts-check
/* global fetch -- Node 20 has it */
// The calendar in production (issue 18): the production server against the tests' fake Google
// Calendar API on loopback (tests/fakes/google-calendar.ts, loaded with Vite's module runner), in
// the four situations of the issue, each figure beside its target:
//   outage    Google answers 500 from the start; 100 visitor requests over 10 s: upstream calls.
//   restart   a good read, then a restart while Google is down: what the API and /events answer.
//   instances two servers started 2.5 s apart on one calendar: do their ETags agree?
//   refresh   a 3,000-event calendar re-read every 2 s while a visitor loads / every 20 ms (and the
//             API every tenth request): /'s latencies against the same visitor with no refreshes,
//             and (reported beside it) a calendar that changes at every read, so every view renders again.
// Alone: `BENCH_ONLY=calendar npm run bench`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { runnerImport } from "vite";
import { checksTable, table } from "./report.js";
import { startProductionServer } from "./server.js";
import { percentile } from "./stats.js";

const DAY = 86_400_000;

/** @typedef {import("../../tests/fakes/google-calendar").FakeGoogleCalendar} FakeGoogleCalendar */
/** @typedef {import("./targets.js").Check} Check */

/** @param {{ now?: () => number }} [options] @returns {Promise<FakeGoogleCalendar>} */
export async function startFake(options) {
  const { module } = await runnerImport(new URL("../../tests/fakes/google-calendar.ts", import.meta.url).pathname, {
    configFile: false,
    logLevel: "silent",
  });
  return /** @type {typeof import("../../tests/fakes/google-calendar")} */ (module).startFakeGoogleCalendar(options);
}

/** @param {string} url @param {Record<string, string>} [headers] */
async function get(url, headers = { "Accept-Encoding": "br" }) {
  const response = await fetch(url, { headers, redirect: "manual" });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, etag: response.headers.get("etag"), body };
}

/** @param {string} logDir @param {string} name @param {Record<string, string>} env */
const start = (logDir, name, env) => startProductionServer({ logFile: join(logDir, `calendar-${name}.log`), env });

/** Situation 1: Google failing from the start; 100 requests over 10 s. */
async function outage(/** @type {string} */ logDir) {
  const fake = await startFake();
  fake.setScenario("error500");
  const server = await start(logDir, "outage", fake.env);
  try {
    const paths = ["/events", "/api/calendar/events", "/events?tab=past", "/sitemap.xml"];
    /** @type {Promise<number>[]} */
    const answers = [];
    const started = Date.now();
    for (let i = 0; i < 100; i++) {
      await sleep(started + i * 100 - Date.now());
      const path = paths[i % paths.length] ?? "/";
      const sent = performance.now();
      answers.push(get(`${server.origin}${path}`).then(() => performance.now() - sent));
    }
    const times = await Promise.all(answers);
    return { upstreamCalls: fake.requestCount(), requests: times.length, slowestMs: Math.max(...times) };
  } finally {
    await server.stop();
    await fake.close();
  }
}

/** Situation 2: a good read, then a restart while Google is down. */
async function restart(/** @type {string} */ logDir) {
  const fake = await startFake();
  const directory = mkdtempSync(join(tmpdir(), "bench-snapshot-"));
  const env = { ...fake.env, EVENTS_SNAPSHOT_PATH: join(directory, "events.json") };
  try {
    fake.setScenario("busy");
    const before = await start(logDir, "restart-1", env);
    /** @type {{ events: { id: string }[] }} */
    let good;
    try {
      good = JSON.parse((await get(`${before.origin}/api/calendar/events`, {})).body.toString());
      // The snapshot is written just after the read; the server's next answer comes after it.
      await sleep(500);
    } finally {
      await before.stop();
    }
    fake.setScenario("error500");
    const after = await start(logDir, "restart-2", env);
    try {
      const api = await get(`${after.origin}/api/calendar/events`, {});
      /** @type {{ stale?: boolean, events?: { id: string }[] }} */
      const body = api.status === 200 ? JSON.parse(api.body.toString()) : {};
      const ids = new Set((body.events ?? []).map((event) => event.id));
      const page = (await get(`${after.origin}/events`, {})).body.toString();
      return {
        events: good.events.length,
        apiStatus: api.status,
        stale: body.stale === true,
        sameEvents: ids.size === good.events.length && good.events.every((event) => ids.has(event.id)),
        pageNote: page.includes("Showing events as last updated"),
        pageLists: page.includes('href="/events/') && !page.includes("Failed to load events from calendar."),
      };
    } finally {
      await after.stop();
    }
  } finally {
    await fake.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Situation 3: two instances on one calendar, started 2.5 s apart. */
async function instances(/** @type {string} */ logDir) {
  const fake = await startFake();
  const one = await start(logDir, "instance-1", fake.env);
  try {
    await get(`${one.origin}/api/calendar/events`);
    await sleep(2_500);
    const two = await start(logDir, "instance-2", fake.env);
    try {
      /** @type {{ events: { id: string }[] }} */
      const { events } = JSON.parse((await get(`${one.origin}/api/calendar/events`, {})).body.toString());
      const paths = [
        "/events",
        "/events?tab=past",
        "/api/calendar/events",
        ...events.flatMap((event) => [`/events/${event.id}`, `/events/${event.id}/og.png`, `/api/calendar/events/${event.id}.ics`]),
      ];
      /** @type {string[]} */
      const differing = [];
      for (const path of paths) {
        const [a, b] = await Promise.all([get(`${one.origin}${path}`), get(`${two.origin}${path}`)]);
        if (a.status !== 200 || a.etag === null || a.etag !== b.etag) differing.push(path);
      }
      return { answers: paths.length, differing };
    } finally {
      await two.stop();
    }
  } finally {
    await one.stop();
    await fake.close();
  }
}

/**
 * Situation 4: a visitor loads / every 20 ms (the API every tenth request) for `seconds`.
 * @param {string} logDir @param {string} name @param {{ ttl: string, changing?: boolean, seconds: number }} options
 */
async function visitor(logDir, name, { ttl, changing = false, seconds }) {
  let reads = 0;
  // A changing calendar: every list request sees the days moved on by one, so every read is new.
  const fake = await startFake(changing ? { now: () => Date.now() + reads++ * DAY } : {});
  fake.setScenario("busy");
  const server = await start(logDir, name, { ...fake.env, EVENTS_CACHE_TTL_SECONDS: ttl });
  try {
    const first = await get(`${server.origin}/api/calendar/events`, {});
    const events = JSON.parse(first.body.toString()).events.length;
    /** @type {number[]} */
    const home = [];
    const started = performance.now();
    for (let i = 0; performance.now() - started < seconds * 1000; i++) {
      const slot = started + i * 20;
      if (performance.now() < slot) await sleep(slot - performance.now());
      const sent = performance.now();
      const answer = await get(`${server.origin}${i % 10 === 9 ? "/api/calendar/events" : "/"}`);
      if (answer.status !== 200) throw new Error(`${name}: ${i % 10 === 9 ? "the API" : "/"} answered ${answer.status}`);
      if (i % 10 !== 9) home.push(performance.now() - sent);
    }
    return {
      events,
      requests: home.length,
      p50Ms: percentile(home, 50),
      p99Ms: percentile(home, 99),
      maxMs: Math.max(...home),
      upstreamCalls: fake.requestCount(),
    };
  } finally {
    await server.stop();
    await fake.close();
  }
}

/**
 * @typedef {object} CalendarResult
 * @property {Awaited<ReturnType<typeof outage>>} outage
 * @property {Awaited<ReturnType<typeof restart>>} restart
 * @property {Awaited<ReturnType<typeof instances>>} instances
 * @property {{ quiet: Awaited<ReturnType<typeof visitor>>, refreshing: Awaited<ReturnType<typeof visitor>>, changing: Awaited<ReturnType<typeof visitor>> }} refresh
 */

/** @param {{ logDir: string, seconds?: number }} options @returns {Promise<CalendarResult>} */
export async function runCalendar({ logDir, seconds = 15 }) {
  return {
    outage: await outage(logDir),
    restart: await restart(logDir),
    instances: await instances(logDir),
    refresh: {
      quiet: await visitor(logDir, "quiet", { ttl: "86400", seconds }),
      refreshing: await visitor(logDir, "refreshing", { ttl: "2", seconds }),
      changing: await visitor(logDir, "changing", { ttl: "2", changing: true, seconds }),
    },
  };
}

const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`;

/** @param {CalendarResult} result @returns {Check[]} */
export function calendarChecks(result) {
  const { outage: o, restart: r, instances: t, refresh } = result;
  const ratio = refresh.refreshing.requests / refresh.quiet.requests;
  return [
    {
      scope: "calendar: outage",
      metric: `upstream calls for ${o.requests} requests over 10 s (slowest answer ${ms(o.slowestMs)})`,
      value: o.upstreamCalls,
      shown: String(o.upstreamCalls),
      target: "≤ 10",
      pass: o.upstreamCalls <= 10,
    },
    {
      scope: "calendar: restart",
      metric: `API after a restart during an outage (${r.events} events read before)`,
      value: r.apiStatus,
      shown: `${r.apiStatus}, stale ${r.stale}, every event ${r.sameEvents}`,
      target: "200, stale true, every event",
      pass: r.apiStatus === 200 && r.stale && r.sameEvents,
    },
    {
      scope: "calendar: restart",
      metric: "/events after a restart during an outage",
      value: r.pageLists && r.pageNote ? 1 : 0,
      shown: `lists events ${r.pageLists}, "last updated" note ${r.pageNote}`,
      target: "lists them, with the note",
      pass: r.pageLists && r.pageNote,
    },
    {
      scope: "calendar: two instances",
      metric: "answers with the same ETag on both",
      value: t.answers - t.differing.length,
      shown: `${t.answers - t.differing.length} of ${t.answers}${t.differing.length ? ` (differ: ${t.differing.slice(0, 5).join(", ")})` : ""}`,
      target: "all",
      pass: t.differing.length === 0,
    },
    {
      scope: "calendar: refresh every 2 s",
      metric: "/ p99",
      value: refresh.refreshing.p99Ms,
      shown: ms(refresh.refreshing.p99Ms),
      target: "< 50 ms",
      pass: refresh.refreshing.p99Ms < 50,
    },
    {
      scope: "calendar: refresh every 2 s",
      metric: "/ max",
      value: refresh.refreshing.maxMs,
      shown: ms(refresh.refreshing.maxMs),
      target: "< 250 ms",
      pass: refresh.refreshing.maxMs < 250,
    },
    {
      scope: "calendar: refresh every 2 s",
      metric: "requests done, against the same visitor without refreshes",
      value: ratio,
      shown: `${refresh.refreshing.requests} of ${refresh.quiet.requests} (${(ratio * 100).toFixed(0)}%)`,
      target: "≥ 80%",
      pass: ratio >= 0.8,
    },
  ];
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "calendar",
  title: "The calendar in production",
  async run({ logDir }) {
    const result = await runCalendar({ logDir });
    const checks = calendarChecks(result);
    const rows = [
      { label: "no refreshes", r: result.refresh.quiet },
      { label: "refreshed every 2 s (same calendar)", r: result.refresh.refreshing },
      { label: "refreshed every 2 s, changing at every read", r: result.refresh.changing },
    ];
    return {
      lines: [
        checksTable(checks),
        "",
        table(
          ["3,000-event calendar", "requests to /", "p50", "p99", "max", "upstream calls"],
          rows.map(({ label, r }) => [label, r.requests, ms(r.p50Ms), ms(r.p99Ms), ms(r.maxMs), r.upstreamCalls]),
        ),
        "",
        "Against the tests' fake Google Calendar API on loopback. A visitor loads / every 20 ms (the API every tenth request) for 15 s.",
      ],
      checks,
      record: result,
    };
  },
};

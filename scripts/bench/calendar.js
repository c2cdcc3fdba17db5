// @ts-check
// The calendar in production (issues 18 and 28): the production server against the tests' fake Google Calendar API on loopback, each
// figure beside its target:
//   outage    Google answers 500 from the start; 100 visitor requests over 10 s: upstream calls.
//   restart   a good read, then a restart while Google is down: what the API and /events answer.
//   instances two servers started 2.5 s apart on one calendar: do their ETags agree?
//   large     6,000 events as Google sends them: does the API list them all?
//   refresh   3,000 events as Google sends them (tests/fakes/google-events.ts) re-read every 2 s while a visitor loads / every 20 ms (and
//             the API every tenth request): /'s latencies against the same visitor with no refreshes, for a calendar that stays the same
//             (nothing renders again) and one that changes at every read (every view renders again).
// Alone: `BENCH_ONLY=calendar npm run bench`.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fakeWith, generated, startFake } from "./calendar-support.js";
import { get, json, text, until } from "./http.js";
import { checksOf, checksTable, table } from "./report.js";
import { scrape, startProductionServer, sumOf } from "./server.js";
import { percentile } from "./stats.js";

const DAY = 86_400_000;
const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`;

/** @param {string} logDir @param {string} name @param {Record<string, string>} env */
const start = (logDir, name, env) => startProductionServer({ logFile: join(logDir, `calendar-${name}.log`), env });

/**
 * Runs `measure` against a fake Google Calendar and a server on it, and stops both.
 * @template T @param {import("../../tests/fakes/google-calendar").FakeGoogleCalendar} fake
 * @param {Promise<import("./server.js").RunningServer>} starting
 * @param {(server: import("./server.js").RunningServer) => Promise<T>} measure
 */
async function against(fake, starting, measure) {
  try {
    const server = await starting;
    try {
      return await measure(server);
    } finally {
      await server.stop();
    }
  } finally {
    await fake.close();
  }
}

/** Situation 1: Google failing from the start; 100 requests over 10 s. @param {string} logDir */
async function outage(logDir) {
  const fake = await startFake();
  fake.setScenario("error500");
  return against(fake, start(logDir, "outage", fake.env), async (server) => {
    const paths = ["/events", "/api/calendar/events", "/events?tab=past", "/sitemap.xml"];
    /** @type {Promise<number>[]} */
    const answers = [];
    const started = Date.now();
    for (let i = 0; i < 100; i++) {
      await sleep(started + i * 100 - Date.now());
      const sent = performance.now();
      answers.push(get(`${server.origin}${paths[i % paths.length]}`).then(() => performance.now() - sent));
    }
    const times = await Promise.all(answers);
    return { upstreamCalls: fake.requestCount(), requests: times.length, slowestMs: Math.max(...times) };
  });
}

/** Situation 2: a good read, then a restart while Google is down. @param {string} logDir */
async function restart(logDir) {
  const fake = await startFake();
  const directory = mkdtempSync(join(tmpdir(), "bench-saved-copy-"));
  const savedCopy = join(directory, "events.json");
  const env = { ...fake.env, EVENTS_SAVED_COPY_PATH: savedCopy };
  try {
    const first = await start(logDir, "restart-1", env);
    /** @type {{ events: { id: string }[] }} */
    const { events: good } = await json(`${first.origin}/api/calendar/events`);
    await until("the saved copy written", () => existsSync(savedCopy)).finally(first.stop);
    fake.setScenario("error500");
    return await against(fake, start(logDir, "restart-2", env), async (server) => {
      const api = await get(`${server.origin}/api/calendar/events`, {});
      /** @type {{ stale?: boolean, events?: { id: string }[] }} */
      const body = api.status === 200 ? JSON.parse(api.body.toString()) : {};
      const ids = new Set((body.events ?? []).map((event) => event.id));
      const page = await text(`${server.origin}/events`);
      return {
        events: good.length,
        apiStatus: api.status,
        stale: body.stale === true,
        sameEvents: ids.size === good.length && good.every((event) => ids.has(event.id)),
        pageNote: page.includes("Showing events as last updated"),
        pageLists: page.includes('href="/events/') && !page.includes("Failed to load events from calendar."),
      };
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Situation 3: two instances on one calendar, started 2.5 s apart. @param {string} logDir */
async function instances(logDir) {
  const fake = await startFake();
  return against(fake, start(logDir, "instance-1", fake.env), async (one) => {
    /** @type {{ events: { id: string }[] }} */
    const { events } = await json(`${one.origin}/api/calendar/events`);
    await sleep(2_500);
    const two = await start(logDir, "instance-2", fake.env);
    try {
      const paths = ["/events", "/events?tab=past", "/api/calendar/events"];
      for (const { id } of events) paths.push(`/events/${id}`, `/events/${id}/og.png`, `/api/calendar/events/${id}.ics`);
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
  });
}

/** Situation 4: 6,000 events as Google sends them. @param {string} logDir */
async function large(logDir) {
  const fake = await fakeWith(6_000);
  return against(fake, start(logDir, "large", fake.env), async (server) => {
    const answer = await get(`${server.origin}/api/calendar/events`, {});
    /** @type {{ events?: unknown[] }} */
    const body = answer.status === 200 ? JSON.parse(answer.body.toString()) : {};
    const cutLogged = /left out|larger than/.test(readFileSync(server.logFile, "utf8"));
    return { status: answer.status, events: body.events?.length ?? 0, pages: fake.requestCount(), cutLogged };
  });
}

/**
 * Situation 5: a visitor loads / every 20 ms (the API every tenth request) for `seconds`.
 * @param {string} logDir @param {string} name @param {{ ttl: string, changing?: boolean, seconds: number }} options
 */
async function visitor(logDir, name, { ttl, changing = false, seconds }) {
  const fake = await startFake();
  // Made before the run, not during it: generating 3,000 events here would stall the visitor's own clock. A changing calendar is
  // another one every second (each a day later than the last), so every read, 2 s after the one before, finds one it has not seen.
  const calendars = [await generated(3_000, Date.now())];
  while (changing && calendars.length < seconds + 5) calendars.push(await generated(3_000, Date.now() + calendars.length * DAY));
  const from = Date.now();
  fake.setEvents(() => calendars[Math.min(calendars.length - 1, Math.floor((Date.now() - from) / 1000))] ?? []);
  return against(fake, start(logDir, name, { ...fake.env, EVENTS_CACHE_TTL_SECONDS: ttl, METRICS_PORT: "0" }), async (server) => {
    await get(`${server.origin}/api/calendar/events`);
    // One scrape each: prom-client's event-loop figures cover the time since the scrape before.
    const counted = async () => {
      const metrics = await scrape(server);
      return {
        renders: sumOf(metrics, "stored_answers_renders_total"),
        reads: sumOf(metrics, "calendar_reads_total", 'outcome="ok"'),
        loopP99Ms: sumOf(metrics, "nodejs_eventloop_lag_p99_seconds") * 1000,
        loopMaxMs: sumOf(metrics, "nodejs_eventloop_lag_max_seconds") * 1000,
      };
    };
    const before = await counted();
    /** @type {number[]} */
    const home = [];
    const started = performance.now();
    for (let i = 0; performance.now() - started < seconds * 1000; i++) {
      const slot = started + i * 20;
      if (performance.now() < slot) await sleep(slot - performance.now());
      const sent = performance.now();
      const path = i % 10 === 9 ? "/api/calendar/events" : "/";
      const answer = await get(`${server.origin}${path}`);
      if (answer.status !== 200) throw new Error(`${name}: ${path} answered ${answer.status}`);
      if (path === "/") home.push(performance.now() - sent);
    }
    const after = await counted();
    return {
      // The server's own event-loop delay over the run (10 ms resolution): what the visitor's figures owe to the server.
      loopP99Ms: after.loopP99Ms,
      loopMaxMs: after.loopMaxMs,
      renders: after.renders - before.renders,
      reads: after.reads - before.reads,
      requests: home.length,
      p50Ms: percentile(home, 50),
      p99Ms: percentile(home, 99),
      maxMs: Math.max(...home),
      upstreamCalls: fake.requestCount(),
    };
  });
}

/** @typedef {Awaited<ReturnType<typeof visitor>>} VisitorResult */

/**
 * @param {{ outage: Awaited<ReturnType<typeof outage>>, restart: Awaited<ReturnType<typeof restart>>,
 *   instances: Awaited<ReturnType<typeof instances>>, large: Awaited<ReturnType<typeof large>>,
 *   refresh: { quiet: VisitorResult, refreshing: VisitorResult, changing: VisitorResult } }} result
 */
function calendarChecks({ outage: o, restart: r, instances: t, large: l, refresh }) {
  /** @type {import("./report.js").Check[]} */
  const checks = [];
  checksOf("calendar: outage", checks)(`upstream calls, ${o.requests} requests over 10 s`, o.upstreamCalls, "≤ 10", o.upstreamCalls <= 10);
  const restarted = checksOf(`calendar: restart during an outage (${r.events} events read before)`, checks);
  restarted(
    "the API",
    `${r.apiStatus}, stale ${r.stale}, every event ${r.sameEvents}`,
    "200, stale, every event",
    r.apiStatus === 200 && r.stale && r.sameEvents,
  );
  restarted(
    "/events",
    `lists events ${r.pageLists}, "last updated" note ${r.pageNote}`,
    "lists them, with the note",
    r.pageLists && r.pageNote,
  );
  const differ = t.differing.length ? ` (differ: ${t.differing.slice(0, 5).join(", ")})` : "";
  checksOf("calendar: two instances", checks)(
    "answers with the same ETag on both",
    `${t.answers - t.differing.length} of ${t.answers}${differ}`,
    "all",
    !differ,
  );
  const cut = l.cutLogged ? ", the log says some were cut" : "";
  const big = checksOf("calendar: 6,000 events as Google sends them", checks);
  big(
    `the API lists all (${l.pages} pages from Google)`,
    `${l.events} (HTTP ${l.status}${cut})`,
    "6000",
    l.status === 200 && l.events === 6_000 && !cut,
  );
  for (const [scope, v] of /** @type {const} */ ([
    ["refresh every 2 s", refresh.refreshing],
    ["refresh every 2 s, changing at every read", refresh.changing],
  ])) {
    const at = checksOf(`calendar: ${scope}`, checks);
    const share = v.requests / refresh.quiet.requests;
    at("/ p99", ms(v.p99Ms), "< 50 ms", v.p99Ms < 50);
    at("/ max", ms(v.maxMs), "< 250 ms", v.maxMs < 250);
    at(
      "requests done, against no refreshes",
      `${v.requests} of ${refresh.quiet.requests} (${(share * 100).toFixed(0)}%)`,
      "≥ 80%",
      share >= 0.8,
    );
  }
  const { refreshing: same, changing } = refresh;
  checksOf("calendar: refresh every 2 s", checks)(
    `renders for ${same.reads} reads of an unchanged calendar`,
    same.renders,
    "0",
    same.renders === 0,
  );
  // Each change renders the events list, its past tab and the API again.
  const most = 3 * (changing.reads + 1);
  checksOf("calendar: changing at every read", checks)(
    `renders for ${changing.reads} reads`,
    changing.renders,
    `≤ ${most}`,
    changing.renders <= most,
  );
  return checks;
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "calendar",
  title: "The calendar in production",
  async run({ logDir }) {
    const seconds = 15;
    const result = {
      outage: await outage(logDir),
      restart: await restart(logDir),
      instances: await instances(logDir),
      large: await large(logDir),
      refresh: {
        quiet: await visitor(logDir, "quiet", { ttl: "86400", seconds }),
        refreshing: await visitor(logDir, "refreshing", { ttl: "2", seconds }),
        changing: await visitor(logDir, "changing", { ttl: "2", changing: true, seconds }),
      },
    };
    const checks = calendarChecks(result);
    const rows = Object.entries({
      "no refreshes": result.refresh.quiet,
      "refreshed every 2 s (same calendar)": result.refresh.refreshing,
      "refreshed every 2 s, changing at every read": result.refresh.changing,
    }).map(([label, v]) => {
      const loop = `${ms(v.loopP99Ms)} / ${ms(v.loopMaxMs)}`;
      return [label, v.requests, ms(v.p50Ms), ms(v.p99Ms), ms(v.maxMs), v.upstreamCalls, v.reads, v.renders, loop];
    });
    const header = "3,000 events as Google sends them|requests to /|p50|p99|max|upstream calls|reads|renders|server loop delay p99 / max";
    return {
      lines: [
        checksTable(checks),
        "",
        table(header.split("|"), rows),
        "",
        `Against the tests' fake Google Calendar API on loopback. A visitor loads / every 20 ms (the API every tenth request) for ${seconds} s.`,
      ],
      checks,
      record: result,
    };
  },
};

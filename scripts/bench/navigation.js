// @ts-check
/* global document, performance, requestAnimationFrame, MutationObserver, PerformanceObserver, fetch -- in the page by page.evaluate; Node 20 has fetch */
// How fast the next page appears after a click (issues 22 and 30), through the DevTools protocol on Lighthouse's throttled phone (150 ms
// round trip, 1.6 Mbps, CPU 4x): three trips, each from a fresh page (no script yet) and from a settled one (React hydrated), beside the
// same trips on static copies of our pages (the same HTML and CSS through a loopback proxy that removes every script but the speculation
// rules) and a tiny two-page site with the same kind of rules, all in the same run, their runs interleaved. The pointer rests on the link
// for 300 ms, then clicks; the time is from the click to the next page's first paint. Under DevTools Chromium prefetches but never
// prerenders. No request is intercepted: interception cancels speculative loads. Then a click on the events page's Past tab (issue 30):
// from the click to the frame that shows the Past list, and the bytes the requests started meanwhile decode, from a fresh page (our start
// script switches in place) and a settled one (React Router's navigation), with the bundled sample calendar and with 3,000 events as Google
// sends them (the tests' fake Google Calendar and its generator); and /events' weight with each. Alone: `BENCH_ONLY=navigation npm run bench`.
import http from "node:http";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { brotliCompressSync } from "node:zlib";
import { chromium } from "playwright-core";
import { CHROME_PATH, CHROMIUM_FLAGS } from "../chromium.js";
import { generated, startFake } from "./calendar-support.js";
import { NO_CALENDAR, listenOnLoopback } from "./http.js";
import { startOfflineGuard } from "./offline-guard.js";
import { checksTable, table } from "./report.js";
import { startProductionServer } from "./server.js";
import { median } from "./stats.js";

/** Lighthouse's mobile profile (its "simulated" figures, applied for real here). */
export const PHONE_THROTTLING = { latencyMs: 150, downloadKbps: 1638.4, uploadKbps: 750, cpuSlowdown: 4 };
const HOVER_MS = 300;
/** Issue 30: each trip's median within this of the same trip on static copies, in the same run. */
export const STATIC_MARGIN_MS = 30;

/** @typedef {{ name: string, from: string, link: string }} Trip A page, and the link a visitor clicks there (a CSS selector, its first visible match). */
/** @type {Trip[]} */
export const TRIPS = [
  { name: "/ → /about", from: "/", link: 'header nav[aria-label="Main"] a[href="/about"]' },
  { name: "/about → /events", from: "/about", link: 'header nav[aria-label="Main"] a[href="/events"]' },
  { name: "/events → an event", from: "/events", link: 'main article a[href^="/events/"]' },
];
const TINY_TRIP = { name: "tiny page → tiny page", from: "/", link: 'a[href="/b"]' };

/** @typedef {{ ms: number | null, servedAs: string, error?: string }} TripRun */

/**
 * Chromium as visitors have it: with the back/forward cache, which Playwright turns off by default (a page left then is torn down,
 * in the renderer the next page commits in, instead of being kept).
 * @param {{ chromeFlags: string[] }} guard
 */
const launchAsVisitors = (guard) =>
  chromium.launch({
    executablePath: CHROME_PATH,
    args: [...CHROMIUM_FLAGS, ...guard.chromeFlags],
    ignoreDefaultArgs: ["--disable-back-forward-cache"],
  });

/** A fresh browser context on the throttled phone, and its page. @param {import("playwright-core").Browser} browser */
export async function throttledPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: "block" });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: PHONE_THROTTLING.latencyMs,
    downloadThroughput: (PHONE_THROTTLING.downloadKbps * 1024) / 8,
    uploadThroughput: (PHONE_THROTTLING.uploadKbps * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE_THROTTLING.cpuSlowdown });
  return { context, page, cdp };
}

/**
 * Settles a page as a visitor's first pointer moves do: our scripts start after a pause and React hydrates (where the page has React), then
 * the network goes quiet.
 * @param {import("playwright-core").Page} page
 */
export async function settle(page) {
  await page.mouse.move(1, 1);
  await page.mouse.move(2, 2);
  const hasReact = await page.evaluate(() => document.querySelector("script[data-deferred-module]") !== null);
  if (hasReact) {
    const hydrated = () => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber$"));
    await page.waitForFunction(hydrated, null, { timeout: 60_000 });
  }
  await page.waitForLoadState("networkidle", { timeout: 60_000 });
}

/** Runs in the new page: when it was first painted (wall clock, ms) and how it came. */
async function arrival() {
  for (let i = 0; i < 500 && !performance.getEntriesByName("first-paint").length; i++) await new Promise((r) => setTimeout(r, 20));
  const navigation = /** @type {PerformanceNavigationTiming & { activationStart?: number, deliveryType?: string }} */ (
    performance.getEntriesByType("navigation")[0]
  );
  const activation = navigation.activationStart ?? 0;
  const paint = performance.getEntriesByName("first-paint")[0]?.startTime;
  // A prerendered page was painted before the click: it shows at activation.
  const shownAt = activation > 0 ? activation : paint;
  const servedAs = activation > 0 ? "prerendered" : navigation.deliveryType === "navigational-prefetch" ? "prefetched" : "document";
  return { shownAt: shownAt === undefined ? null : performance.timeOrigin + shownAt, servedAs, timeOrigin: performance.timeOrigin };
}

/**
 * One trip in a fresh browser context, throttled.
 * @param {import("playwright-core").Browser} browser @param {string} origin @param {Trip} trip @param {"fresh" | "settled"} state
 * @returns {Promise<TripRun>}
 */
async function tripOnce(browser, origin, trip, state) {
  const { context, page } = await throttledPage(browser);
  try {
    await page.goto(`${origin}${trip.from}`, { waitUntil: "load", timeout: 60_000 });
    if (state === "settled") await settle(page);
    const link = page.locator(trip.link).locator("visible=true").first();
    const to = new URL(/** @type {string} */ (await link.getAttribute("href")), origin).pathname;
    const before = await page.evaluate(() => performance.timeOrigin);
    const box = await link.boundingBox();
    if (!box) throw new Error(`${trip.link} is not on screen`);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
    await sleep(HOVER_MS);
    const clickedAt = Date.now();
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForURL((url) => url.pathname === to, { timeout: 60_000 });
    await page.waitForFunction(() => document.readyState !== "loading" && document.querySelector("h1"), null, { timeout: 60_000 });
    const { shownAt, servedAs, timeOrigin } = await page.evaluate(arrival);
    // An in-app navigation keeps the document: it is not the trip measured here.
    if (timeOrigin === before) return { ms: null, servedAs: "in-app", error: "the click did not load a document" };
    return { ms: shownAt === null ? null : Math.max(0, Math.round(shownAt - clickedAt)), servedAs };
  } catch (error) {
    return { ms: null, servedAs: "failed", error: error instanceof Error ? error.message.split("\n")[0] : String(error) };
  } finally {
    await context.close();
  }
}

/** The same page with every script removed but the speculation rules: its static copy. @param {string} html */
export function staticCopy(html) {
  return html
    .replace(/<script\b(?![^>]*type="speculationrules")[^>]*>[\s\S]*?<\/script>/g, "")
    .replace(/<link rel="modulepreload"[^>]*>/g, "");
}

/**
 * A loopback proxy in front of `origin` whose HTML answers are edited (asked for uncompressed).
 * @param {string} origin @param {(html: string) => string} edit
 */
export async function startEditingProxy(origin, edit) {
  const target = new URL(origin);
  const server = http.createServer((req, res) => {
    const html = (req.headers.accept ?? "").includes("text/html");
    const headers = html ? { ...req.headers, "accept-encoding": "identity" } : req.headers;
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (answer) => {
      if (!String(answer.headers["content-type"]).startsWith("text/html")) {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        return answer.pipe(res);
      }
      /** @type {Buffer[]} */
      const chunks = [];
      answer.on("data", (chunk) => chunks.push(chunk));
      answer.on("end", () => {
        // Compressed as ours are (brotli); other bytes than the stored answer's: not its ETag.
        const br = /\bbr\b/.test(String(req.headers["accept-encoding"]));
        const edited = Buffer.from(edit(Buffer.concat(chunks).toString("utf8")));
        const body = br ? brotliCompressSync(edited) : edited;
        const kept = Object.entries(answer.headers).filter(([name]) => !["etag", "content-encoding", "content-length"].includes(name));
        res.writeHead(answer.statusCode ?? 502, {
          ...Object.fromEntries(kept),
          ...(br && { "content-encoding": "br" }),
          "content-length": body.length,
        });
        res.end(body);
      });
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  return listenOnLoopback(server);
}

/** A two-page site with nothing in it and moderate prerender rules like ours: the floor on this machine. */
async function startTinySite() {
  const rules = JSON.stringify({ prerender: [{ source: "document", where: { href_matches: "/*" }, eagerness: "moderate" }] });
  /** @type {Record<string, string>} */
  const pages = {
    "/": '<h1>A tiny page</h1><p><a href="/b" style="font-size:2rem">To the other tiny page</a></p>',
    "/b": '<h1>The other tiny page</h1><div style="height:400px;background:#14213d"></div>',
  };
  const server = http.createServer((req, res) => {
    const body = pages[req.url ?? ""];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tiny</title>
<script type="speculationrules">${rules}</script></head><body>${body}</body></html>`);
  });
  return listenOnLoopback(server);
}

/** @param {TripRun[]} runs The median, or null unless every run was measured. */
const medianOf = (runs) =>
  runs.length > 0 && runs.every((run) => run.ms !== null) ? Math.round(median(runs.map((run) => run.ms)) ?? 0) : null;
/** @param {TripRun} run */
const describeRun = (run) => (run.ms === null ? `failed (${run.error ?? run.servedAs})` : `${run.ms} ms ${run.servedAs}`);

/**
 * @typedef {{ trip: string, state: "fresh" | "settled", site: "ours" | "static copies" | "tiny site", runs: TripRun[], medianMs: number | null }} TripResult
 */

/**
 * Every trip, fresh and settled, on our pages and their static copies, and the tiny site's: `runs` rounds, each row once per round, so the
 * machine's load falls on all of them alike.
 * @param {{ origin: string, runs: number }} options
 * @returns {Promise<TripResult[]>}
 */
export async function measureTrips({ origin, runs }) {
  const guard = await startOfflineGuard();
  const browser = await launchAsVisitors(guard);
  const copies = await startEditingProxy(origin, staticCopy);
  const tiny = await startTinySite();
  /** @type {TripResult[]} */
  const rows = [
    ...TRIPS.flatMap((trip) =>
      /** @type {const} */ (["fresh", "settled"]).flatMap((state) =>
        /** @type {const} */ (["ours", "static copies"]).map((site) => ({ trip: trip.name, state, site, runs: [], medianMs: null })),
      ),
    ),
    { trip: TINY_TRIP.name, state: "fresh", site: "tiny site", runs: [], medianMs: null },
  ];
  const origins = { ours: origin, "static copies": copies.origin, "tiny site": tiny.origin };
  try {
    // Unmeasured: each trip once, so the server has rendered every page (an event page's first render follows the calendar's) and
    // Chromium has started its processes, before the first measured click.
    for (const trip of [...TRIPS, TINY_TRIP]) await tripOnce(browser, trip === TINY_TRIP ? tiny.origin : copies.origin, trip, "fresh");
    for (let round = 1; round <= runs; round++) {
      for (const row of rows) {
        const trip = TRIPS.find((candidate) => candidate.name === row.trip) ?? TINY_TRIP;
        const run = await tripOnce(browser, origins[row.site], trip, row.state);
        console.log(`navigation ${row.trip}, ${row.state}, ${row.site}, run ${round}/${runs}: ${describeRun(run)}`);
        row.runs.push(run);
      }
    }
  } finally {
    await browser.close();
    await copies.close();
    await tiny.close();
    await guard.stop();
  }
  return rows.map((row) => ({ ...row, medianMs: medianOf(row.runs) }));
}

/** Issue 30's targets: the Past list on screen within this of the click (median), decoding under SWITCH_BYTES. */
export const SWITCH_MS = 100;
export const SWITCH_BYTES = 100_000;

/** @param {number} bytes */
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** Runs in the page before the click: notes the frame after the Past list is shown, in this document. */
function watchPast() {
  const state = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  const list = document.querySelector('div[data-tab-panel="past"]');
  if (!list) return;
  const observer = new MutationObserver(() => {
    if (list.hasAttribute("hidden")) return;
    observer.disconnect();
    // The next frame after the one whose update includes the change.
    requestAnimationFrame(() => requestAnimationFrame(() => (state.__benchShownAt = performance.timeOrigin + performance.now())));
  });
  observer.observe(list, { attributes: true });
  // The browser's own figure, when it has one (16 ms and more): from the click to the next paint after its handlers, which switch the list.
  new PerformanceObserver((entries) => {
    const click = entries.getEntries().find((entry) => entry.name === "click");
    if (click) state.__benchClickToPaint = click.duration;
  }).observe(/** @type {PerformanceObserverInit} */ ({ type: "event", durationThreshold: 16 }));
}

/**
 * One click on Past, throttled.
 * @param {import("playwright-core").Browser} browser @param {string} origin @param {"fresh" | "settled"} state
 * @returns {Promise<{ ms: number | null, bytes: number, error?: string }>}
 */
async function switchOnce(browser, origin, state) {
  const { context, page, cdp } = await throttledPage(browser);
  // The bytes of the requests the switch starts: from the click until the list is shown.
  let bytes = 0;
  let counting = false;
  const started = new Set();
  cdp.on("Network.requestWillBeSent", (event) => void (counting && started.add(event.requestId)));
  cdp.on("Network.dataReceived", (event) => void (started.has(event.requestId) && (bytes += event.dataLength)));
  try {
    await page.goto(`${origin}/events`, { waitUntil: "load", timeout: 60_000 });
    // A visitor reads before choosing a tab: the page has loaded and gone quiet (a fresh one still runs no script).
    await (state === "settled" ? settle(page) : page.waitForLoadState("networkidle", { timeout: 60_000 }));
    await page.evaluate(watchPast);
    const link = page.locator('a[data-tab="past"]');
    const box = await link.boundingBox();
    if (!box) throw new Error("the Past tab is not on screen");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
    await sleep(300);
    counting = true;
    const clickedAt = Date.now();
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForURL((url) => url.search === "?tab=past", { timeout: 60_000 });
    const shownAt = await page
      .waitForFunction(() => /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis)).__benchShownAt, null, {
        timeout: 30_000,
      })
      .then((handle) => /** @type {Promise<number>} */ (handle.jsonValue()))
      .catch(() => null);
    counting = false;
    await sleep(1_000);
    if (shownAt === null) return { ms: null, bytes, error: "the Past list was not shown in this document" };
    // Else from our click to the frame after the list showed: an upper bound (a busy main thread delays that frame, not the list).
    const clickToPaint = await page.evaluate(
      () => /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis)).__benchClickToPaint,
    );
    return { ms: typeof clickToPaint === "number" ? Math.round(clickToPaint) : Math.max(0, Math.round(shownAt - clickedAt)), bytes };
  } catch (error) {
    return { ms: null, bytes, error: error instanceof Error ? error.message.split("\n")[0] : String(error) };
  } finally {
    await context.close();
  }
}

/** @param {{ runs: number, logDir: string }} options */
export async function measureTabSwitches({ runs, logDir }) {
  const fake = await startFake();
  fake.setEvents(await generated(3_000, Date.now()));
  const guard = await startOfflineGuard();
  const browser = await launchAsVisitors(guard);
  /** @type {{ calendar: string, state: "fresh" | "settled", runs: { ms: number | null, bytes: number, error?: string }[] }[]} */
  const rows = [];
  /** @type {(string | number)[][]} */
  const weights = [];
  try {
    /** @type {[string, Record<string, string>][]} */
    const calendars = [
      ["bundled sample", NO_CALENDAR],
      ["3,000 events from Google", { ...NO_CALENDAR, ...fake.env }],
    ];
    for (const [calendar, env] of calendars) {
      const server = await startProductionServer({ logFile: join(logDir, `tab-switch-${rows.length}.log`), env });
      try {
        // The calendar's first read is not the switch's. The page's weight: flat however many events the calendar holds (issue 13).
        const get = async (/** @type {string} */ path) =>
          (await fetch(`${server.origin}${path}`, { headers: { "Accept-Encoding": "identity" } })).text();
        const html = Buffer.from(await get("/events"));
        const listed = JSON.parse(await get("/api/calendar/events")).events.length;
        weights.push([calendar, listed, kB(html.length), kB(brotliCompressSync(html).length)]);
        for (const state of /** @type {const} */ (["fresh", "settled"])) {
          const row = { calendar, state, runs: /** @type {typeof rows[number]["runs"]} */ ([]) };
          for (let run = 1; run <= runs; run++) {
            const result = await switchOnce(browser, server.origin, state);
            console.log(`tab switch, ${calendar}, ${state}, run ${run}/${runs}: ${result.ms ?? result.error} ms, ${result.bytes} B`);
            row.runs.push(result);
          }
          rows.push(row);
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await browser.close();
    await guard.stop();
    await fake.close();
  }
  const figures = rows.map((row) => ({
    ...row,
    ms: row.runs.every((run) => run.ms !== null) ? Math.round(median(row.runs.map((run) => run.ms)) ?? 0) : null,
    bytes: Math.max(...row.runs.map((run) => run.bytes)),
  }));
  const row = (/** @type {typeof figures[number]} */ f) => [f.calendar, f.state, f.ms === null ? "failed" : `${f.ms} ms`, kB(f.bytes)];
  return {
    lines: [
      table(["/events document", "events listed by the API", "HTML", "brotli"], weights),
      "",
      table(
        ["Past tab click", "State", "Median to the list on screen", "Most decoded", "Runs"],
        figures.map((f) => [...row(f), f.runs.map((r) => r.ms ?? r.error).join("; ")]),
      ),
    ],
    checks: figures.map((f) => ({
      scope: `events Past tab, ${f.calendar}, ${f.state}`,
      metric: "median click to the list on screen; bytes decoded",
      value: f.ms,
      shown: row(f).slice(2).join(", "),
      target: `< ${SWITCH_MS} ms, < ${SWITCH_BYTES / 1000} kB`,
      pass: f.ms !== null && f.ms < SWITCH_MS && f.bytes < SWITCH_BYTES,
    })),
    record: { switches: figures, weights },
  };
}

/** @param {number | null} ms */
const shown = (ms) => (ms === null ? "not measured" : `${ms} ms`);

/**
 * Each of our trips against the same trip on the static copies: within STATIC_MARGIN_MS.
 * @param {TripResult[]} results
 * @returns {import("./targets.js").Check[]}
 */
export function navigationChecks(results) {
  const tiny = results.find((row) => row.site === "tiny site")?.medianMs ?? null;
  return results
    .filter((row) => row.site === "ours")
    .map((ours) => {
      const copy =
        results.find((row) => row.site === "static copies" && row.trip === ours.trip && row.state === ours.state)?.medianMs ?? null;
      const measured = ours.medianMs !== null && copy !== null;
      return {
        scope: `navigation ${ours.trip}, ${ours.state}`,
        metric: "median click to first paint against static copies (tiny site beside)",
        value: ours.medianMs,
        shown: `${shown(ours.medianMs)} (static copies ${shown(copy)}, tiny site ${shown(tiny)})`,
        target: `≤ static copies + ${STATIC_MARGIN_MS} ms${copy === null ? "" : ` = ${copy + STATIC_MARGIN_MS} ms`}`,
        pass: measured && /** @type {number} */ (ours.medianMs) <= /** @type {number} */ (copy) + STATIC_MARGIN_MS,
      };
    });
}

/** `npm run bench`'s navigation section: the trips, then the events tabs. @type {import("./report.js").Section} */
export const section = {
  name: "navigation",
  title: "Navigation (click to next page, and the events tabs)",
  async run({ config, logDir }) {
    const server = await startProductionServer({ logFile: join(logDir, "navigation-server.log") });
    /** @type {TripResult[]} */
    let trips;
    try {
      trips = await measureTrips({ origin: server.origin, runs: config.runs });
    } finally {
      await server.stop();
    }
    const tabs = await measureTabSwitches({ runs: config.runs, logDir });
    const checks = [...navigationChecks(trips), ...tabs.checks];
    return {
      lines: [
        table(
          ["Trip", "State", "Site", "Median", "Runs"],
          trips.map((row) => [row.trip, row.state, row.site, shown(row.medianMs), row.runs.map(describeRun).join("; ")]),
        ),
        "",
        ...tabs.lines,
        "",
        `Lighthouse's throttled phone through DevTools (150 ms RTT, 1.6 Mbps, CPU 4x), medians of ${config.runs}; a trip: pointer on the link ${HOVER_MS} ms, ` +
          "click, the next page's first paint. Static copies: our pages with every script removed but the speculation rules. A reference that could not be measured says so. " +
          "Past tab: the browser's Event Timing duration of the click (to the next paint after its handlers), or where it has none (under 16 ms) up to the frame after.",
        "",
        checksTable(checks),
      ],
      checks,
      record: { trips, tabs: tabs.record },
    };
  },
};

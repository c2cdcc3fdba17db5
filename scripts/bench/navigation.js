// @ts-check
/* global window, document, location, performance, requestAnimationFrame, MutationObserver, HTMLScriptElement -- functions run in the page by page.evaluate */
// How fast the next page appears after a click (issue 22), measured two ways:
//
// - Through the DevTools protocol (playwright-core), on Lighthouse's throttled phone (150 ms round
//   trip, 1.6 Mbps down, CPU slowed 4x): three trips, each from a fresh page (no script yet) and
//   from a settled one (React hydrated). The pointer rests on the link for 300 ms, as a finger or
//   mouse does, then clicks; the time is from the click to the next page's first paint (a document)
//   or to the frame after its heading appears (an in-app navigation). Under DevTools Chromium never
//   prerenders (PrerenderingDisabledByDevTools), so a document is at best prefetched here. No request
//   is intercepted: interception cancels speculative loads.
// - Without DevTools: headful Chromium under Xvfb, driven by xdotool as a person would, and filmed
//   by ffmpeg (x11grab). A loopback proxy in front of the server sees the speculative request
//   (Sec-Purpose: prefetch;prerender) and whether the click asked for the document again. Not
//   throttled: nothing but DevTools can slow Chromium down.
//
// And the static anchor's Lighthouse (a hand-written, zero-script copy of / and /about served by
// nginx, ../shared/anchors/static-limit, or STATIC_ANCHOR_DIR) is run beside ours by index.js.
//
// Run alone with `node scripts/bench/navigation.js` (after `npm run build`), or as part of `npm run bench`.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import WebSocket from "ws";
import { CHROME_PATH, CHROMIUM_FLAGS } from "../chromium.js";
import { BEFORE_ISSUE_22, startBeforeIssue22 } from "./before-issue-22.js";
import { stopChildOnCleanup } from "./cleanup.js";
import { freePort, listenOnLoopback, rawGet, waitForHttp } from "./http.js";
import { startOfflineGuard } from "./offline-guard.js";
import { table } from "./report.js";
import { ensureBuild, startProductionServer } from "./server.js";
import { median } from "./stats.js";

/** Lighthouse's mobile profile (its "simulated" figures, applied for real here). */
export const PHONE_THROTTLING = { latencyMs: 150, downloadKbps: 1638.4, uploadKbps: 750, cpuSlowdown: 4 };
const HOVER_MS = 300;
const VIEWPORT = { width: 1280, height: 800 };
/** Issue 22's target: each trip's median click-to-display through DevTools. */
export const CDP_TARGET_MS = 200;
/** Issue 22's target without DevTools: prerendered, and the screen changes within this. */
export const XVFB_TARGET_MS = 100;

/**
 * A trip: from a page, the link a visitor clicks (found in the page), and what shows they arrived.
 * @typedef {object} Trip
 * @property {string} name
 * @property {string} from
 * @property {string} link A CSS selector for the link (its first match).
 * @property {{ fresh: number, settled: number }} [today] Issue 22's medians before it (ms): a browser without speculation rules must not be slower.
 */

/** @type {Trip[]} */
export const TRIPS = [
  {
    name: "/ → /about (header link)",
    from: "/",
    link: 'header nav[aria-label="Main"] a[href="/about"]',
    today: { fresh: 777, settled: 415 },
  },
  {
    name: "/about → /events",
    from: "/about",
    link: 'header nav[aria-label="Main"] a[href="/events"]',
    today: { fresh: 667, settled: 854 },
  },
  { name: "/events → an event's page", from: "/events", link: 'main article a[href^="/events/"]', today: { fresh: 677, settled: 579 } },
];

/**
 * @typedef {"prerendered" | "prefetched" | "document" | "in-app" | "failed"} ServedAs
 * @typedef {{ ms: number | null, servedAs: ServedAs, error?: string }} TripRun
 * @typedef {{ trip: string, state: "fresh" | "settled", runs: TripRun[], medianMs: number | null, floor?: boolean, reducedMotion?: boolean, noRules?: boolean, before?: boolean, todayMs?: number, todayFrom?: string }} TripResult
 */

/**
 * Runs in the page before the click: notes the frame after the heading of `to` appears, if the
 * navigation happens in this document (React Router's in-app navigation).
 * @param {string} to
 */
function watchInApp(to) {
  const state = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (window));
  state.__benchSameDocument = true;
  const before = document.querySelector("h1")?.textContent ?? "";
  const observer = new MutationObserver(() => {
    const heading = document.querySelector("h1")?.textContent ?? "";
    if (location.pathname !== to || heading === before || heading === "") return;
    observer.disconnect();
    // The frame that shows it: the next one after the one whose update includes the change.
    requestAnimationFrame(() => requestAnimationFrame(() => (state.__benchShownAt = performance.timeOrigin + performance.now())));
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
}

/** Runs in every document of a browser without speculation rules, before the page's scripts. */
function withoutSpeculationRules() {
  const supports = HTMLScriptElement.supports.bind(HTMLScriptElement);
  HTMLScriptElement.supports = (type) => type !== "speculationrules" && supports(type);
}

/** Runs in the page after the click: when it was shown (wall clock, ms) and how it came. */
async function arrival() {
  const state = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (window));
  const until = async (/** @type {() => unknown} */ ready) => {
    for (let i = 0; i < 500 && !ready(); i++) await new Promise((r) => setTimeout(r, 20));
  };
  if (state.__benchSameDocument) {
    await until(() => state.__benchShownAt);
    return { shownAt: /** @type {number | undefined} */ (state.__benchShownAt) ?? null, servedAs: "in-app" };
  }
  const navigation = /** @type {PerformanceNavigationTiming & { activationStart?: number, deliveryType?: string }} */ (
    performance.getEntriesByType("navigation")[0]
  );
  const paint = () => performance.getEntriesByType("paint").find((entry) => entry.name === "first-paint");
  await until(paint);
  const activation = navigation.activationStart ?? 0;
  const servedAs = activation > 0 ? "prerendered" : navigation.deliveryType === "navigational-prefetch" ? "prefetched" : "document";
  // A prerendered page was painted before the click: it shows at activation.
  const shownAt = activation > 0 ? activation : (paint()?.startTime ?? null);
  return { shownAt: shownAt === null ? null : performance.timeOrigin + shownAt, servedAs };
}

/**
 * One trip through DevTools in a fresh browser context, throttled.
 * @param {import("playwright-core").Browser} browser
 * @param {string} origin
 * @param {Trip} trip
 * @param {"fresh" | "settled"} state
 * @param {{ reducedMotion?: boolean, noRules?: boolean }} [variant] The visitor asks for less motion
 *   (no view transition); the browser has no speculation rules (`origin` has taken them out of its pages).
 * @returns {Promise<TripRun>}
 */
async function tripOnce(browser, origin, trip, state, { reducedMotion = false, noRules = false } = {}) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    serviceWorkers: "block",
    reducedMotion: reducedMotion ? "reduce" : "no-preference",
  });
  try {
    // Such a browser also says so when a page asks (app/lib/loads-ahead.ts).
    if (noRules) await context.addInitScript(withoutSpeculationRules);
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
    await page.goto(`${origin}${trip.from}`, { waitUntil: "load", timeout: 60_000 });
    if (state === "settled") {
      await page.mouse.move(1, 1);
      await page.mouse.move(2, 2);
      await page.waitForFunction(
        () => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber$")),
        null,
        {
          timeout: 60_000,
        },
      );
      await page.waitForLoadState("networkidle", { timeout: 60_000 });
    }
    const link = page.locator(trip.link).locator("visible=true").first();
    const to = new URL(/** @type {string} */ (await link.getAttribute("href")), origin).pathname;
    await page.evaluate(watchInApp, to);
    const box = await link.boundingBox();
    if (!box) throw new Error(`${trip.link} is not on screen`);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
    await sleep(HOVER_MS);
    const clickedAt = Date.now();
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForURL((url) => url.pathname === to, { timeout: 60_000 });
    await page.waitForFunction(() => document.readyState !== "loading" && document.querySelector("h1"), null, { timeout: 60_000 });
    const { shownAt, servedAs } = await page.evaluate(arrival);
    return { ms: shownAt === null ? null : Math.max(0, Math.round(shownAt - clickedAt)), servedAs: /** @type {ServedAs} */ (servedAs) };
  } catch (error) {
    return { ms: null, servedAs: "failed", error: error instanceof Error ? error.message.split("\n")[0] : String(error) };
  } finally {
    await context.close();
  }
}

/**
 * Every trip, fresh and settled, `runs` times each, through DevTools.
 * @param {{ origin: string, runs: number, beforeOrigin?: string }} options `beforeOrigin`: the site
 *   before issue 22 (before-issue-22.js), the bound of a browser without speculation rules.
 * @returns {Promise<TripResult[]>}
 */
export async function measureCdpTrips({ origin, runs, beforeOrigin }) {
  const guard = await startOfflineGuard();
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: [...CHROMIUM_FLAGS, ...guard.chromeFlags] });
  const stop = () => browser.close();
  const tiny = await startTinySite();
  const withoutRules = await startWitness(origin, { withoutRules: true });
  const before = beforeOrigin ? await startWitness(beforeOrigin, { withoutRules: true }) : undefined;
  const row = { floor: false, reducedMotion: false, noRules: false, before: false };
  const fresh = /** @type {const} */ ("fresh");
  const settled = /** @type {const} */ ("settled");
  const plan = [
    ...TRIPS.flatMap((trip) => [
      { ...row, trip, origin, state: fresh },
      { ...row, trip, origin, state: settled },
      // The same without the view transition, to show what it costs.
      { ...row, trip, origin, state: fresh, reducedMotion: true },
    ]),
    // As a browser without speculation rules, each beside the site before issue 22, its bound.
    ...TRIPS.flatMap((trip) =>
      [fresh, settled].flatMap((state) => [
        { ...row, trip, origin: withoutRules.origin, state, noRules: true },
        ...(before ? [{ ...row, trip, origin: before.origin, state, noRules: true, before: true }] : []),
      ]),
    ),
    { ...row, trip: TINY_TRIP, origin: tiny.origin, state: fresh, floor: true },
  ];
  /** @type {TripResult[]} */
  const results = [];
  try {
    for (const { trip, origin: site, state, floor, reducedMotion, noRules, before: isBefore } of plan) {
      /** @type {TripRun[]} */
      const tripRuns = [];
      for (let run = 0; run < runs; run++) {
        const result = await tripOnce(browser, site, trip, state, { reducedMotion, noRules });
        console.log(
          `navigation (DevTools) ${trip.name}, ${variantName(state, reducedMotion, noRules, isBefore)}, run ${run + 1}/${runs}: ${describeRun(result)}`,
        );
        tripRuns.push(result);
      }
      results.push({
        trip: trip.name,
        state,
        runs: tripRuns,
        medianMs: medianOf(tripRuns),
        floor,
        reducedMotion,
        noRules,
        before: isBefore,
      });
    }
  } finally {
    await stop();
    await tiny.stop();
    await withoutRules.stop();
    await before?.stop();
    await guard.stop();
  }
  return withBounds(results);
}

/**
 * Each row of a browser without speculation rules gets its bound: the site before issue 22 in this
 * run, or else the issue's own figure (another machine, another day).
 * @param {TripResult[]} results
 * @returns {TripResult[]}
 */
function withBounds(results) {
  return results.map((result) => {
    if (!result.noRules || result.before) return result;
    const measured = results.find((other) => other.before && other.trip === result.trip && other.state === result.state);
    if (measured?.medianMs) return { ...result, todayMs: measured.medianMs, todayFrom: "before issue 22, same run" };
    const trip = TRIPS.find((candidate) => candidate.name === result.trip);
    return { ...result, todayMs: trip?.today?.[result.state], todayFrom: "the issue's figure" };
  });
}

/**
 * @param {"fresh" | "settled"} state
 * @param {boolean} [reducedMotion]
 * @param {boolean} [noRules]
 * @param {boolean} [before] The site before issue 22.
 */
const variantName = (state, reducedMotion, noRules, before) =>
  `${state === "fresh" ? "fresh page" : "settled (hydrated)"}${reducedMotion ? ", reduced motion" : ""}${noRules ? ", without speculation rules" : ""}${before ? ", the site before issue 22" : ""}`;

/**
 * The target of a DevTools row: under 200 ms, or for a browser without speculation rules no slower than before issue 22.
 * @param {TripResult} result
 * @returns {{ target: string, pass: boolean } | undefined}
 */
function cdpTarget(result) {
  if (result.floor || result.before) return undefined;
  if (result.noRules) {
    const today = result.todayMs ?? 0;
    return { target: `≤ ${today} ms (${result.todayFrom})`, pass: result.medianMs !== null && result.medianMs <= today };
  }
  return { target: `< ${CDP_TARGET_MS} ms`, pass: result.medianMs !== null && result.medianMs < CDP_TARGET_MS };
}

/**
 * The target of an Xvfb row: every run prerendered and the median under XVFB_TARGET_MS.
 * @param {XvfbResult} result
 */
function xvfbVerdict(result) {
  const prerendered = result.runs.every((run) => run.servedAs === "prerendered");
  return { prerendered, pass: prerendered && result.medianMs !== null && result.medianMs < XVFB_TARGET_MS };
}

/** @param {XvfbRun} run */
const describeXvfbRun = (run) => `${run.ms ?? "?"} ms changed, ${run.completeMs ?? "?"} ms complete, ${run.servedAs}`;

/** @param {TripRun} run */
const describeRun = (run) => (run.ms === null ? `failed (${run.error ?? run.servedAs})` : `${run.ms} ms, ${run.servedAs}`);

/** @param {number[]} values */
const roundedMedian = (values) => Math.round(/** @type {number} */ (median(values)));

/** @param {{ ms: number | null }[]} runs */
function medianOf(runs) {
  const values = runs.flatMap((run) => (run.ms === null ? [] : [run.ms]));
  return values.length === runs.length && values.length > 0 ? roundedMedian(values) : null;
}

/** The tools the Xvfb measurement needs (Debian: xvfb, xdotool, ffmpeg); the first missing one, if any. */
function missingTool() {
  for (const tool of ["Xvfb", "xdotool", "ffmpeg"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) return tool;
  }
  return undefined;
}

/**
 * A loopback proxy in front of the server that notes each document request and its Sec-Purpose;
 * with `withoutRules`, it takes the speculation rules out of every page, as a browser without them
 * would ignore them (their request asks for uncompressed HTML, so the bytes can be edited).
 * @param {string} origin
 * @param {{ withoutRules?: boolean }} [options]
 */
async function startWitness(origin, { withoutRules = false } = {}) {
  /** @type {{ path: string, purpose: string }[]} */
  const seen = [];
  const target = new URL(origin);
  const server = http.createServer((req, res) => {
    const html = (req.headers.accept ?? "").includes("text/html");
    if (html) seen.push({ path: req.url ?? "", purpose: String(req.headers["sec-purpose"] ?? "") });
    const edit = withoutRules && html;
    const headers = edit ? { ...req.headers, "accept-encoding": "identity" } : req.headers;
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (answer) => {
      if (!edit || !String(answer.headers["content-type"]).startsWith("text/html")) {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
        return;
      }
      /** @type {Buffer[]} */
      const chunks = [];
      answer.on("data", (chunk) => chunks.push(chunk));
      answer.on("end", () => {
        const body = Buffer.from(
          Buffer.concat(chunks)
            .toString("utf8")
            .replace(/<script type="speculationrules">[^<]*<\/script>/, ""),
        );
        // Other bytes than the stored answer's: not its ETag.
        const kept = Object.entries(answer.headers).filter(([name]) => name !== "etag");
        res.writeHead(answer.statusCode ?? 502, { ...Object.fromEntries(kept), "content-length": body.length });
        res.end(body);
      });
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  const { origin: witnessOrigin, close } = await listenOnLoopback(server);
  return { origin: witnessOrigin, seen, stop: close };
}

/**
 * A trip under Xvfb: ms from the press to the first changed frame (the issue's "screen changes"),
 * completeMs to the frame from which the screen stays as it ends (after a view transition's fade).
 * @typedef {{ ms: number | null, completeMs: number | null, servedAs: string }} XvfbRun
 * @typedef {{ trip: string, variant: string, floor: boolean, runs: XvfbRun[], medianMs: number | null, medianCompleteMs: number | null }} XvfbResult
 */

/** A two-page site with nothing in it: the floor of the Xvfb measurement on this machine. */
const TINY_PAGES = {
  "/": '<h1>A tiny page</h1><p><a href="/b" style="font-size:2rem">To the other tiny page</a></p>',
  "/b": '<h1>The other tiny page</h1><div style="height:400px;background:#14213d"></div>',
};
/** @type {Trip} */
const TINY_TRIP = { name: "tiny page → tiny page (the floor)", from: "/", link: 'a[href="/b"]' };

/** Serves the tiny site, with moderate prerender rules like ours. */
async function startTinySite() {
  const rules = JSON.stringify({ prerender: [{ source: "document", where: { href_matches: "/*" }, eagerness: "moderate" }] });
  const server = http.createServer((req, res) => {
    const body = TINY_PAGES[/** @type {keyof typeof TINY_PAGES} */ (req.url ?? "")];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tiny</title><script type="speculationrules">${rules}</script></head><body>${body}</body></html>`,
    );
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, stop: close };
}

/**
 * The trips `/` → `/about` and `/events` → an event's page without DevTools: headful Chromium
 * under Xvfb, xdotool's pointer, ffmpeg's frames; with motion (our view transition) and with
 * reduced motion (none), and a tiny two-page site the same way, for the measurement's floor.
 * @param {{ origin: string, runs: number }} options
 * @returns {Promise<{ results: XvfbResult[] } | { skipped: string }>}
 */
export async function measureXvfbTrips({ origin, runs }) {
  const missing = missingTool();
  if (missing) return { skipped: `${missing} not found (apt-get install xvfb xdotool ffmpeg)` };
  const display = await startXvfb();
  const tiny = await startTinySite();
  const witnesses = { ours: await startWitness(origin), tiny: await startWitness(tiny.origin) };
  const plan = [
    ...[TRIPS[0], TRIPS[2]].flatMap((trip) => [
      { trip: /** @type {Trip} */ (trip), witness: witnesses.ours, variant: "motion", flags: [], floor: false },
      {
        trip: /** @type {Trip} */ (trip),
        witness: witnesses.ours,
        variant: "reduced motion",
        flags: ["--force-prefers-reduced-motion"],
        floor: false,
      },
    ]),
    { trip: TINY_TRIP, witness: witnesses.tiny, variant: "motion", flags: [], floor: true },
  ];
  /** @type {XvfbResult[]} */
  const results = [];
  try {
    for (const { trip, witness, variant, flags, floor } of plan) {
      /** @type {XvfbRun[]} */
      const tripRuns = [];
      for (let run = 0; run < runs; run++) {
        const result = await xvfbTripOnce(display, witness, trip, flags);
        console.log(`navigation (Xvfb, no DevTools) ${trip.name}, ${variant}, run ${run + 1}/${runs}: ${describeXvfbRun(result)}`);
        tripRuns.push(result);
      }
      results.push({
        trip: trip.name,
        variant,
        floor,
        runs: tripRuns,
        medianMs: medianOf(tripRuns),
        medianCompleteMs: medianOf(tripRuns.map((run) => ({ ms: run.completeMs }))),
      });
    }
  } finally {
    await witnesses.ours.stop();
    await witnesses.tiny.stop();
    await tiny.stop();
    await display.stop();
  }
  return { results };
}

/** @typedef {{ x: number, y: number, width: number, height: number }} Region */

/** The screen under the header, where any two of our pages differ. */
const CHANGING_REGION = { x: 0, y: 64, width: VIEWPORT.width, height: 300 };

/** Starts Xvfb on a free display number. */
async function startXvfb() {
  for (let number = 90; number < 130; number++) {
    if (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) continue;
    const child = spawn("Xvfb", [`:${number}`, "-screen", "0", `${VIEWPORT.width}x${VIEWPORT.height}x24`, "-nolisten", "tcp"], {
      stdio: "ignore",
    });
    const { stop } = stopChildOnCleanup(child, 2_000);
    for (let i = 0; i < 100 && !existsSync(`/tmp/.X11-unix/X${number}`); i++) {
      if (child.exitCode !== null) break;
      await sleep(50);
    }
    if (existsSync(`/tmp/.X11-unix/X${number}`)) return { name: `:${number}`, stop };
    await stop();
  }
  throw new Error("no free X display for Xvfb");
}

/**
 * @param {{ name: string }} display
 * @param {Awaited<ReturnType<typeof startWitness>>} witness
 * @param {Trip} trip
 * @param {string[]} flags
 * @returns {Promise<XvfbRun>}
 */
async function xvfbTripOnce(display, witness, trip, flags) {
  const env = { ...process.env, DISPLAY: display.name };
  const profile = mkdtempSync(join(tmpdir(), "bench-xvfb-"));
  const browser = spawn(
    CHROME_PATH,
    [
      ...CHROMIUM_FLAGS.filter((flag) => flag !== "--disable-gpu"),
      "--disable-gpu",
      `--user-data-dir=${profile}`,
      "--kiosk",
      `--window-size=${VIEWPORT.width},${VIEWPORT.height}`,
      "--window-position=0,0",
      "--disable-features=Translate",
      "--password-store=basic",
      // No "unsupported command-line flag" bar above the page: the link positions are the page's own.
      "--test-type",
      ...flags,
      // No client connects before the click (a DevTools session stops prerendering): afterwards
      // the page's own navigation timing says whether it was prerendered.
      "--remote-debugging-port=0",
      `${witness.origin}${trip.from}`,
    ],
    { env, stdio: "ignore" },
  );
  const { stop } = stopChildOnCleanup(browser, 3_000);
  try {
    // The page, its stylesheet and images: wait until the browser has asked for nothing new for a while.
    await quietRequests(witness, trip.from);
    witness.seen.length = 0;
    const at = await linkPlace(profile, trip);
    await runToEnd("xdotool", ["mousemove", String(at.x), String(at.y)], env);
    await sleep(HOVER_MS);
    const recording = startRecording(display, CHANGING_REGION);
    await recording.started;
    const clickStarted = Date.now();
    await runToEnd("xdotool", ["click", "1"], env);
    const frames = await recording.untilSettled(clickStarted);
    await recording.stop();
    const arrived = await arrivalAfterwards(profile, at.to);
    // From the press as the page received it (xdotool's own start-up is not the browser's time).
    const pressedAt = arrived.pressedAt ?? clickStarted;
    const since = (/** @type {number | null} */ time) => (time === null ? null : Math.max(0, Math.round(time - pressedAt)));
    return { ms: since(frames.changedAt), completeMs: since(frames.completeAt), servedAs: arrived.servedAs };
  } finally {
    await stop();
    await removeProfile(profile);
  }
}

/**
 * Runs a short command to its end without blocking the event loop (the recording is read meanwhile).
 * @param {string} command
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
async function runToEnd(command, args, env) {
  const child = spawn(command, args, { env, stdio: "ignore" });
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`${command} ${args[0]} exited with ${code}`);
}

/**
 * Evaluates an expression in the browser's page at `pathname` through one short DevTools session
 * (raw CDP over a WebSocket: a client that stays attached would stop the browser prerendering).
 * @param {string} profile The browser's user data directory (its DevToolsActivePort file).
 * @param {string} pathname
 * @param {string} expression
 * @returns {Promise<unknown>}
 */
async function evaluateInPage(profile, pathname, expression) {
  const [port] = readFileSync(join(profile, "DevToolsActivePort"), "utf8").split("\n");
  const targets = /** @type {{ type: string, url: string, webSocketDebuggerUrl: string }[]} */ (
    JSON.parse((await rawGet(`http://127.0.0.1:${port}/json/list`)).body.toString())
  );
  const target = targets.find(
    (candidate) => candidate.type === "page" && URL.canParse(candidate.url) && new URL(candidate.url).pathname === pathname,
  );
  if (!target) return undefined;
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  try {
    await once(socket, "open");
    socket.send(JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression, returnByValue: true, awaitPromise: true } }));
    for (;;) {
      const [data] = await once(socket, "message");
      const message = JSON.parse(String(data));
      if (message.id === 1) return message.result?.result?.value;
    }
  } finally {
    socket.close();
    await once(socket, "close");
  }
}

/**
 * Removes a browser's user data directory. Chromium's helper processes may still write in it for a
 * moment after the browser exits: it is tried again for 5 s, then once more when the bench exits.
 * @param {string} profile
 */
async function removeProfile(profile) {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      rmSync(profile, { recursive: true, force: true });
      return;
    } catch {
      await sleep(100);
    }
  }
  process.once("exit", () => rmSync(profile, { recursive: true, force: true }));
}

/**
 * Where the trip's link is on screen, and where it goes; the page also notes when it receives the
 * press (localStorage, read by arrivalAfterwards on the next page).
 * @param {string} profile
 * @param {Trip} trip
 * @returns {Promise<{ x: number, y: number, to: string }>}
 */
async function linkPlace(profile, trip) {
  const place = await evaluateInPage(
    profile,
    trip.from,
    `(() => {
      const link = [...document.querySelectorAll(${JSON.stringify(trip.link)})].find((candidate) => candidate.getClientRects().length > 0);
      if (!link) return null;
      const box = link.getBoundingClientRect();
      localStorage.removeItem("bench-pressed-at");
      addEventListener("pointerdown", (event) => localStorage.setItem("bench-pressed-at", String(performance.timeOrigin + event.timeStamp)), { capture: true, once: true });
      return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2), to: new URL(link.href).pathname };
    })()`,
  );
  if (!place) throw new Error(`${trip.link} is not on screen`);
  return /** @type {{ x: number, y: number, to: string }} */ (place);
}

/**
 * How the page on screen came, and when the page before it received the press, read once it is shown.
 * @param {string} profile
 * @param {string} to The path the click went to.
 * @returns {Promise<{ servedAs: string, pressedAt: number | null }>}
 */
async function arrivalAfterwards(profile, to) {
  const arrived = /** @type {{ servedAs: string, pressedAt: number | null } | undefined} */ (
    await evaluateInPage(
      profile,
      to,
      `(() => {
        const navigation = performance.getEntriesByType("navigation")[0];
        const servedAs = (navigation.activationStart ?? 0) > 0 ? "prerendered" : navigation.deliveryType === "navigational-prefetch" ? "prefetched" : "document";
        const pressedAt = Number(localStorage.getItem("bench-pressed-at"));
        return { servedAs, pressedAt: pressedAt > 0 ? pressedAt : null };
      })()`,
    )
  );
  return arrived ?? { servedAs: "not arrived", pressedAt: null };
}

/**
 * Waits until the page's requests have come and 1.5 s passed with none new.
 * @param {Awaited<ReturnType<typeof startWitness>>} witness
 * @param {string} path
 */
async function quietRequests(witness, path) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !witness.seen.some((request) => request.path === path)) await sleep(50);
  await sleep(1_500);
}

/**
 * When the screen changed after `since` (a click), from frames in capture order:
 * changedAt, the first frame that differs from the last one before `since`; completeAt, the first
 * of the frames the screen then stays at (after a view transition's fade), if it did not come back.
 * @param {{ at: number, hash: string }[]} frames
 * @param {number} since
 * @returns {{ changedAt: number | null, completeAt: number | null }}
 */
export function screenChange(frames, since) {
  const before = frames.filter((frame) => frame.at < since).at(-1)?.hash;
  const after = frames.filter((frame) => frame.at >= since);
  const changed = after.find((frame) => frame.hash !== before);
  const final = after.at(-1)?.hash;
  const complete =
    changed && final !== before ? after.findLast((frame, index) => frame.hash === final && after[index - 1]?.hash !== final) : undefined;
  return { changedAt: changed?.at ?? null, completeAt: complete?.at ?? null };
}

/**
 * One frame of ffmpeg's framemd5 output ("0, dts, pts, duration, size, md5"), its pts turned into
 * milliseconds with the time base of the "#tb 0: num/den" header line; null for any other line.
 * @param {string} line
 * @param {{ num: number, den: number }} timeBase
 * @returns {{ at: number, hash: string } | null}
 */
export function frameOf(line, timeBase) {
  const fields = line.startsWith("#") ? [] : line.split(",").map((field) => field.trim());
  if (fields.length !== 6 || !/^[0-9a-f]{32}$/.test(fields[5] ?? "")) return null;
  return { at: (Number(fields[2]) * 1000 * timeBase.num) / timeBase.den, hash: /** @type {string} */ (fields[5]) };
}

/** After the click, the screen is settled once no frame has changed for this long. */
const SETTLED_MS = 700;

/**
 * Films a region of the screen with ffmpeg (x11grab, up to 100 frames/s, without the pointer,
 * whose shape changes with what is under it), and reports each frame's capture time (x11grab's
 * wall clock, kept by -copyts) and the MD5 of its pixels, as ffmpeg's framemd5 prints them.
 * @param {{ name: string }} display
 * @param {Region} region
 */
function startRecording(display, region) {
  const ffmpeg = spawn(
    "ffmpeg",
    [
      ...["-loglevel", "error", "-f", "x11grab", "-draw_mouse", "0", "-framerate", "100"],
      ...["-video_size", `${region.width}x${region.height}`, "-i", `${display.name}+${region.x},${region.y}`],
      ...["-copyts", "-fps_mode", "passthrough", "-f", "framemd5", "-"],
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const { stop } = stopChildOnCleanup(ffmpeg, 1_000);
  /** @type {{ at: number, hash: string }[]} */
  const frames = [];
  let timeBase = { num: 1, den: 1_000_000 };
  let pending = "";
  /** @type {(() => void)[]} */
  const waiting = [];
  ffmpeg.stdout.setEncoding("utf8").on("data", (/** @type {string} */ chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const header = /^#tb 0: (\d+)\/(\d+)/.exec(line);
      if (header) timeBase = { num: Number(header[1]), den: Number(header[2]) };
      const frame = frameOf(line, timeBase);
      if (frame) frames.push(frame);
    }
    if (frames.length > 0) for (const wake of waiting.splice(0)) wake();
  });
  const nextFrame = () => new Promise((resolve) => waiting.push(() => resolve(undefined)));
  return {
    started: nextFrame(),
    /**
     * Waits until the screen changed after `since` and then stayed still for SETTLED_MS (or 5 s
     * passed). changedAt: the first frame that differs from the last one before `since`;
     * completeAt: the first frame from which the screen stays as it ends (a view transition's end).
     * @param {number} since
     */
    async untilSettled(since) {
      const deadline = Date.now() + 5_000;
      const lastChange = () => {
        for (let index = frames.length - 1; index > 0; index--) {
          const frame = /** @type {{ at: number, hash: string }} */ (frames[index]);
          if (frame.hash !== frames[index - 1]?.hash) return frame.at;
        }
        return -Infinity;
      };
      while (Date.now() < deadline && !(lastChange() > since && (frames.at(-1)?.at ?? 0) - lastChange() >= SETTLED_MS)) {
        await Promise.race([nextFrame(), sleep(100)]);
      }
      return screenChange(frames, since);
    },
    stop,
  };
}

/**
 * The static anchor (issue 22): a folder with serve.sh (nginx) and site/. STATIC_ANCHOR_DIR, or
 * ../shared/anchors/static-limit beside the checkout.
 * @param {NodeJS.ProcessEnv} env
 */
export function anchorDir(env) {
  return resolve(
    env.STATIC_ANCHOR_DIR ?? join(fileURLToPath(new URL("../..", import.meta.url)), "..", "shared", "anchors", "static-limit"),
  );
}

/**
 * Starts the anchor's nginx on a free loopback port, or says why it cannot.
 * @param {string} dir
 * @returns {Promise<{ origin: string, stop: () => Promise<void> } | { skipped: string }>}
 */
export async function startStaticAnchor(dir) {
  if (!existsSync(join(dir, "serve.sh"))) return { skipped: `no static anchor at ${dir} (set STATIC_ANCHOR_DIR)` };
  if (spawnSync("sh", ["-c", "command -v nginx"]).status !== 0) return { skipped: "nginx not found (apt-get install nginx-light)" };
  const port = await freePort();
  const child = spawn("bash", [join(dir, "serve.sh")], { env: { ...process.env, PORT: String(port) }, stdio: "ignore" });
  const { stop } = stopChildOnCleanup(child, 3_000);
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${origin}/`, { timeoutMs: 15_000, isAlive: () => child.exitCode === null });
  } catch (error) {
    await stop();
    return { skipped: `the static anchor's nginx did not start (${error instanceof Error ? error.message : String(error)})` };
  }
  return { origin, stop };
}

/**
 * The report's table: each trip's median against its target, and how each run was served.
 * @param {TripResult[]} cdp
 * @param {Awaited<ReturnType<typeof measureXvfbTrips>> | undefined} xvfb
 */
export function navigationTable(cdp, xvfb) {
  const rows = cdp.map((result) => {
    const verdict = cdpTarget(result);
    return [
      `${result.trip}, ${variantName(result.state, result.reducedMotion, result.noRules, result.before)}`,
      "DevTools, throttled",
      result.medianMs === null ? "failed" : `${result.medianMs} ms`,
      verdict?.target ?? (result.before ? "(the bound)" : "(the floor)"),
      verdict ? (verdict.pass ? "PASS" : "FAIL") : "",
      result.runs.map(describeRun).join("; "),
    ];
  });
  if (xvfb && "results" in xvfb) {
    for (const result of xvfb.results) {
      rows.push([
        `${result.trip}, ${result.variant}`,
        "Xvfb + xdotool, no DevTools",
        result.medianMs === null ? "failed" : `${result.medianMs} ms (complete ${result.medianCompleteMs ?? "?"} ms)`,
        result.floor ? "(the floor)" : `prerendered, < ${XVFB_TARGET_MS} ms`,
        result.floor ? "" : xvfbVerdict(result).pass ? "PASS" : "FAIL",
        result.runs.map(describeXvfbRun).join("; "),
      ]);
    }
  }
  return table(["Trip", "Measured with", "Median click-to-display", "Target", "", "Runs"], rows);
}

/**
 * Checks for the summary line.
 * @param {TripResult[]} cdp
 * @param {Awaited<ReturnType<typeof measureXvfbTrips>> | undefined} xvfb
 */
export function navigationChecks(cdp, xvfb) {
  /** @type {import("./targets.js").Check[]} */
  const checks = cdp.flatMap((result) => {
    const verdict = cdpTarget(result);
    if (!verdict) return [];
    return [
      {
        scope: `navigation ${result.trip} (${variantName(result.state, result.reducedMotion, result.noRules)})`,
        metric: "median click-to-display, DevTools, throttled",
        value: result.medianMs,
        shown: result.medianMs === null ? "failed" : `${result.medianMs} ms`,
        target: verdict.target,
        pass: verdict.pass,
      },
    ];
  });
  if (xvfb && "results" in xvfb) {
    for (const result of xvfb.results.filter((candidate) => !candidate.floor)) {
      const { prerendered, pass } = xvfbVerdict(result);
      checks.push({
        scope: `navigation ${result.trip} (Xvfb, ${result.variant})`,
        metric: "prerendered; median click-to-screen-change",
        value: result.medianMs,
        shown: `${prerendered ? "prerendered" : "not always prerendered"}, ${result.medianMs ?? "failed"} ms`,
        target: `prerendered, < ${XVFB_TARGET_MS} ms`,
        pass,
      });
    }
  }
  return checks;
}

/** Issue 22: each route's median TBT within this factor of the static anchor's, in the same run. */
export const ANCHOR_TBT_FACTOR = 1.5;

/**
 * Each of our routes' median Total Blocking Time against the anchor's: / and /about against their
 * own copies, every other route against the anchor's higher median of the two.
 * @param {import("./lighthouse.js").RouteResult[]} ours
 * @param {import("./lighthouse.js").RouteResult[]} anchor
 * @returns {import("./targets.js").Check[]}
 */
export function anchorChecks(ours, anchor) {
  const anchorTbt = new Map(anchor.flatMap((route) => (route.median.tbtMs === null ? [] : [[route.route, route.median.tbtMs]])));
  if (anchorTbt.size === 0) return [];
  const highest = Math.max(...anchorTbt.values());
  return ours.flatMap((route) => {
    const value = route.median.tbtMs;
    if (value === null) return [];
    const reference = anchorTbt.get(route.route) ?? highest;
    const limit = reference * ANCHOR_TBT_FACTOR;
    return [
      {
        scope: route.route,
        metric: "Total Blocking Time against the static anchor",
        value,
        shown: `${Math.round(value)} ms`,
        target: `≤ ${ANCHOR_TBT_FACTOR}× the anchor's ${Math.round(reference)} ms = ${Math.round(limit)} ms`,
        pass: value <= limit,
      },
    ];
  });
}

/** `npm run bench`'s navigation section, with a production server of its own. @type {import("./report.js").Section} */
export const section = {
  name: "navigation",
  title: "Navigation (click to display)",
  async run({ config, logDir }) {
    const server = await startProductionServer({ logFile: join(logDir, "navigation-server.log") });
    const before = await startBeforeIssue22(logDir);
    try {
      const cdp = await measureCdpTrips({
        origin: server.origin,
        runs: config.runs,
        beforeOrigin: "origin" in before ? before.origin : undefined,
      });
      const xvfb = await measureXvfbTrips({ origin: server.origin, runs: config.runs });
      return {
        lines: [
          navigationTable(cdp, xvfb),
          "",
          "DevTools rows: Lighthouse's throttled phone (150 ms RTT, 1.6 Mbps, CPU 4x), pointer on the link for 300 ms, then a click; " +
            "Chromium never prerenders under DevTools. Xvfb rows: headful Chromium without DevTools, xdotool's pointer, ffmpeg's frames (pointer not drawn), not throttled; " +
            "from the press as the page received it to the capture of the first changed frame, and of the frame the screen then stays at (complete).",
          ...("skipped" in xvfb ? ["", `Xvfb trips skipped: ${xvfb.skipped}.`] : []),
          ...("skipped" in before ? ["", `The site before issue 22 (${BEFORE_ISSUE_22}) not measured: ${before.skipped}.`] : []),
        ],
        checks: navigationChecks(cdp, xvfb),
        record: { devtools: cdp, xvfb },
      };
    } finally {
      if ("stop" in before) await before.stop();
      await server.stop();
    }
  },
};

// Alone: `node scripts/bench/navigation.js` (BENCH_RUNS runs per trip, default 3).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  ensureBuild();
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const server = await startProductionServer({ logFile: join(tmpdir(), "bench-navigation-server.log") });
  const skipCdp = process.env.BENCH_SKIP?.includes("cdp");
  const before = skipCdp ? undefined : await startBeforeIssue22(tmpdir());
  if (before && "skipped" in before) console.log(`The site before issue 22 (${BEFORE_ISSUE_22}) not measured: ${before.skipped}.`);
  try {
    const beforeOrigin = before && "origin" in before ? before.origin : undefined;
    const cdp = skipCdp ? [] : await measureCdpTrips({ origin: server.origin, runs, beforeOrigin });
    const xvfb = process.env.BENCH_SKIP?.includes("xvfb") ? undefined : await measureXvfbTrips({ origin: server.origin, runs });
    console.log(`\n${navigationTable(cdp, xvfb)}`);
    if (xvfb && "skipped" in xvfb) console.log(`\nXvfb trips skipped: ${xvfb.skipped}`);
  } finally {
    if (before && "stop" in before) await before.stop();
    await server.stop();
  }
}

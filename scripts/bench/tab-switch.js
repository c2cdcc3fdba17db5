// @ts-check
/* global document, performance, requestAnimationFrame, MutationObserver, fetch -- in the page by page.evaluate; Node 20 has fetch */
// A click on the events page's Past tab (issue 30), on the throttled phone: from the click to the
// frame that shows the Past list, and the bytes the requests started meanwhile decode (read until a second after),
// from a fresh page (our start script switches in place) and a settled one (React Router's
// navigation), with the bundled sample calendar and with 3,000 events as Google sends them (the
// tests' fake Google Calendar, "busy").
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import { runnerImport } from "vite";
import { CHROME_PATH, CHROMIUM_FLAGS } from "../chromium.js";
import { NO_CALENDAR } from "./http.js";
import { settle, throttledPage } from "./navigation.js";
import { startOfflineGuard } from "./offline-guard.js";
import { table } from "./report.js";
import { startProductionServer } from "./server.js";
import { median } from "./stats.js";

/** Issue 30's targets: the Past list on screen within this of the click (median), decoding under SWITCH_BYTES. */
export const SWITCH_MS = 100;
export const SWITCH_BYTES = 100_000;

/** @param {number} bytes */
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** The tests' fake Google Calendar (TypeScript, loaded through Vite's module runner). */
async function startFakeGoogle() {
  const url = new URL("../../tests/fakes/google-calendar.ts", import.meta.url).pathname;
  const { module } = await runnerImport(url, { configFile: false, logLevel: "silent" });
  return /** @type {typeof import("../../tests/fakes/google-calendar")} */ (module).startFakeGoogleCalendar();
}

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
    if (state === "settled") await settle(page);
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
    return { ms: Math.max(0, Math.round(shownAt - clickedAt)), bytes };
  } catch (error) {
    return { ms: null, bytes, error: error instanceof Error ? error.message.split("\n")[0] : String(error) };
  } finally {
    await context.close();
  }
}

/** @param {{ runs: number, logDir: string }} options */
export async function measureTabSwitches({ runs, logDir }) {
  const fake = await startFakeGoogle();
  fake.setScenario("busy");
  const guard = await startOfflineGuard();
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: [...CHROMIUM_FLAGS, ...guard.chromeFlags] });
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
        const html = Buffer.from(
          await (await fetch(`${server.origin}/events`, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer(),
        );
        const listed = /** @type {{ events: unknown[] }} */ (await (await fetch(`${server.origin}/api/calendar/events`)).json()).events
          .length;
        weights.push([calendar, listed, kB(html.length), kB(brotliCompressSync(html).length)]);
        for (const state of /** @type {const} */ (["fresh", "settled"])) {
          const row = { calendar, state, runs: /** @type {typeof rows[number]["runs"]} */ ([]) };
          for (let run = 1; run <= runs; run++) {
            const result = await switchOnce(browser, server.origin, state);
            console.log(
              `tab switch, ${calendar}, ${state}, run ${run}/${runs}: ${result.ms ?? `failed (${result.error})`} ms, ${result.bytes} bytes`,
            );
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
  const figures = rows.map((row) => {
    const all = row.runs.every((run) => run.ms !== null);
    const ms = all ? Math.round(median(row.runs.map((run) => run.ms)) ?? 0) : null;
    return { ...row, ms, bytes: Math.max(...row.runs.map((run) => run.bytes)) };
  });
  return {
    lines: [
      table(["/events document", "events listed by the API", "HTML", "brotli"], weights),
      "",
      table(
        ["Past tab click", "State", "Median to the list on screen", "Most bytes decoded", "Runs"],
        figures.map((f) => [
          f.calendar,
          f.state,
          f.ms === null ? "failed" : `${f.ms} ms`,
          `${f.bytes} B`,
          f.runs.map((r) => r.ms ?? r.error).join("; "),
        ]),
      ),
    ],
    checks: figures.map((f) => ({
      scope: `events Past tab, ${f.calendar}, ${f.state}`,
      metric: "median click to the list on screen; bytes decoded",
      value: f.ms,
      shown: `${f.ms === null ? "failed" : `${f.ms} ms`}, ${(f.bytes / 1000).toFixed(1)} kB`,
      target: `< ${SWITCH_MS} ms, < ${SWITCH_BYTES / 1000} kB`,
      pass: f.ms !== null && f.ms < SWITCH_MS && f.bytes < SWITCH_BYTES,
    })),
    record: { switches: figures, weights },
  };
}

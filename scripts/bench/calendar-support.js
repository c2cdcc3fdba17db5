// @ts-check
/* global fetch -- Node 20 has it */
// What the calendar sections share: the tests' fake Google Calendar API and its calendar generator
// (TypeScript, loaded with Vite's module runner), a GET that keeps the bytes, and a server's metrics.
import { readFileSync } from "node:fs";
import http from "node:http";
import { runnerImport } from "vite";
import { rawGet } from "./http.js";

/** @typedef {import("../../tests/fakes/google-calendar").FakeGoogleCalendar} FakeGoogleCalendar */
/** @typedef {typeof import("../../tests/fakes/google-calendar")} FakeModule */
/** @type {FakeModule | undefined} */
let fakeModule;
/** The fake's module (and its calendar generator), loaded once with Vite's module runner. @returns {Promise<FakeModule>} */
async function loadFake() {
  if (!fakeModule) {
    const { module } = await runnerImport(new URL("../../tests/fakes/google-calendar.ts", import.meta.url).pathname, {
      configFile: false,
      logLevel: "silent",
    });
    fakeModule = /** @type {FakeModule} */ (module);
  }
  return fakeModule;
}

/** @param {{ now?: () => number }} [options] @returns {Promise<FakeGoogleCalendar>} */
export async function startFake(options) {
  return (await loadFake()).startFakeGoogleCalendar(options);
}

/** `count` events as Google sends them, around `now`. @param {number} count @param {number} now */
export async function generated(count, now) {
  return (await loadFake()).generateGoogleEvents({ count, now });
}

// One connection reused, as a browser would (and as fetch did).
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** A GET whose body stays as sent (compressed when the server compressed it). @param {string} url @param {Record<string, string>} [headers] */
export async function get(url, headers = { "Accept-Encoding": "br" }) {
  const response = await rawGet(url, headers, 60_000, keepAlive);
  const at = response.rawHeaders.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === "etag");
  return { status: response.status, etag: at >= 0 ? (response.rawHeaders[at + 1] ?? null) : null, body: response.body };
}

/** The server's metrics (its listener, METRICS_PORT=0: its address is in the log), as text. @param {{ logFile: string }} server */
export async function scrape(server) {
  const port = /Metrics for Prometheus at http:\/\/[^:]+:(\d+)/.exec(readFileSync(server.logFile, "utf8"))?.[1];
  if (!port) throw new Error(`no metrics listener in ${server.logFile}`);
  return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
}

/** The sum of a metric's samples whose labels include `labels`. @param {string} text @param {string} name @param {string} [labels] */
export function sumOf(text, name, labels = "") {
  return text
    .split("\n")
    .filter((line) => (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

/** One metric from a fresh scrape (the event-loop figures restart at every scrape: read them together with sumOf). @param {{ logFile: string }} server @param {string} name @param {string} [labels] */
export async function metricSum(server, name, labels = "") {
  return sumOf(await scrape(server), name, labels);
}

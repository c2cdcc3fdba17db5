// @ts-check
// Small HTTP helpers on node:http only: raw bytes (no automatic decompression), free ports, waiting for a condition.
import http from "node:http";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A response exactly as it came off the wire (after de-chunking): headers flat [name, value, …] in their original order and case, the body
 * bytes still content-encoded.
 * @typedef {{ status: number, rawHeaders: string[], body: Buffer }} RawResponse
 */

/** @returns {Promise<number>} A TCP port free on loopback right now. */
export async function freePort() {
  const { origin, close } = await listenOnLoopback(net.createServer());
  await close();
  return Number(new URL(origin).port);
}

/**
 * GETs a URL without decoding the body. `agent`: by default a fresh connection, so a capture never rides on a load's keep-alive socket.
 * @param {string} url @param {Record<string, string>} [headers] @param {number} [timeoutMs] @param {http.Agent | false} [agent]
 * @returns {Promise<RawResponse>}
 */
export function rawGet(url, headers = {}, timeoutMs = 10_000, agent = false) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent, timeout: timeoutMs }, (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => resolve({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }));
    });
    request.on("timeout", () => request.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)));
    request.on("error", reject);
  });
}

/** A header's value (its name in any case), or null. @param {RawResponse} answer @param {string} name */
export const headerOf = (answer, name) =>
  answer.rawHeaders.find((_, i, all) => i % 2 === 1 && all[i - 1]?.toLowerCase() === name.toLowerCase()) ?? null;

// One connection reused, as a browser would.
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** A GET on a kept-alive connection whose body stays as sent (brotli unless `headers` say otherwise), and its ETag. @param {string} url @param {Record<string, string>} [headers] */
export async function get(url, headers = { "Accept-Encoding": "br" }) {
  const answer = await rawGet(url, headers, 60_000, keepAlive);
  return { ...answer, etag: headerOf(answer, "etag") };
}

/** A GET's body as text or JSON, uncompressed. @param {string} url */
export const text = async (url) => (await get(url, {})).body.toString("utf8");
/** @param {string} url @returns {Promise<any>} Parsed JSON: its shape is the caller's to know. */
export const json = async (url) => JSON.parse(await text(url));

/**
 * Polls `condition` every 100 ms until it holds (its value is returned), or throws naming `what` after `timeoutMs`.
 * @template T @param {string} what @param {() => T | Promise<T>} condition @param {number} [timeoutMs]
 * @returns {Promise<NonNullable<T>>}
 */
export async function until(what, condition, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return /** @type {NonNullable<T>} */ (value);
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

/** @param {string} hostname */
export function isLoopbackHost(hostname) {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The server's variables with no calendar configured: the bundled sample. */
export const NO_CALENDAR = { GOOGLE_CALENDAR_ID: "", GOOGLE_API_KEY: "", GOOGLE_CALENDAR_API_URL: "", CALENDAR_ICS_URL: "" };

/**
 * Starts a server on a free loopback port (the system's pick: no race with another process).
 * @param {http.Server | net.Server} server @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function listenOnLoopback(server) {
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve(undefined))) };
}

/** An iCalendar feed on a free loopback port, for a server to read through CALENDAR_ICS_URL. @param {string} ics */
export async function serveIcs(ics) {
  const feed = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/calendar; charset=utf-8" }).end(ics));
  const { origin, close } = await listenOnLoopback(feed);
  return { url: `${origin}/calendar.ics`, close };
}

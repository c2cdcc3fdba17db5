// @ts-check
// Small HTTP helpers on node:http only: raw bytes (no automatic decompression), free ports.
import http from "node:http";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A response exactly as it came off the wire (after de-chunking): headers flat [name, value, …] in their original order and case, the body
 * bytes still content-encoded.
 * @typedef {{ status: number, statusMessage: string, rawHeaders: string[], body: Buffer }} RawResponse
 */

/** @returns {Promise<number>} A TCP port free on loopback right now. */
export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(undefined));
  });
  const address = server.address();
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  if (typeof address !== "object" || !address) throw new Error("could not get a free port");
  return address.port;
}

/**
 * GETs a URL without decoding the body.
 * @param {string} url
 * @param {Record<string, string>} [headers]
 * @param {number} [timeoutMs]
 * @param {http.Agent | false} [agent] By default a fresh connection, so a capture never rides on a benchmark's keep-alive socket.
 * @returns {Promise<RawResponse>}
 */
export function rawGet(url, headers = {}, timeoutMs = 10_000, agent = false) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent, timeout: timeoutMs }, (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          statusMessage: response.statusMessage ?? "",
          rawHeaders: response.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on("timeout", () => request.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)));
    request.on("error", reject);
  });
}

/**
 * Polls until the URL answers at all (any status), or throws after timeoutMs.
 * @param {string} url
 * @param {{ timeoutMs: number, isAlive?: () => boolean }} options
 */
export async function waitForHttp(url, { timeoutMs, isAlive = () => true }) {
  const deadline = Date.now() + timeoutMs;
  /** @type {unknown} */
  let lastError;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error("the process exited before it answered");
    try {
      await rawGet(url, {}, 2_000);
      return;
    } catch (error) {
      lastError = error;
      await sleep(200);
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${lastError instanceof Error ? lastError.message : String(lastError)})`);
}

/** @param {string} hostname */
export function isLoopbackHost(hostname) {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The server's variables with no calendar configured: the bundled sample. */
export const NO_CALENDAR = { GOOGLE_CALENDAR_ID: "", GOOGLE_API_KEY: "", GOOGLE_CALENDAR_API_URL: "", CALENDAR_ICS_URL: "" };

/**
 * Starts a server on a free loopback port (the port is the system's pick: no race with another process).
 * @param {http.Server} server @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function listenOnLoopback(server) {
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve(undefined))) };
}

/**
 * An iCalendar feed on a free loopback port, for a server to read through CALENDAR_ICS_URL.
 * @param {string} text @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serveIcs(text) {
  const feed = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/calendar; charset=utf-8" });
    res.end(text);
  });
  const { origin, close } = await listenOnLoopback(feed);
  return { url: `${origin}/calendar.ics`, close };
}

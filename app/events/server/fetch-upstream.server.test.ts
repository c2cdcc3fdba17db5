import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  jitteredBackoff,
  MAX_BODY_BYTES,
  parseRetryAfter,
  readJson,
  requestUpstream,
  UpstreamError,
  type UpstreamOptions,
} from "./fetch-upstream.server";
import { rejectionOf } from "../../../tests/support/rejection";

// A real loopback server whose answers are scripted per request.
type Step =
  | { status: number; body: string; delayMs?: number; headers?: Record<string, string> }
  | "reset"
  | "reset-mid-body" // headers and part of the body, then the connection drops
  | "endless"; // 200 and 64 KB chunks (no Content-Length) until the client hangs up
type Script = (count: number) => Step;
let script: Script = () => ({ status: 200, body: "{}" });
let count = 0;
/** Bytes an "endless" answer had written when its connection closed. */
let endlessWritten: number[] = [];
let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    count++;
    const step = script(count);
    if (step === "reset") {
      req.socket.destroy();
      return;
    }
    if (step === "reset-mid-body") {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"ok":tr', () => setTimeout(() => req.socket.destroy(), 20));
      return;
    }
    if (step === "endless") {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, " ");
      let written = 0;
      const pump = () => {
        while (!res.destroyed && written < 100 * MAX_BODY_BYTES) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      res.on("close", () => endlessWritten.push(written));
      res.write("{");
      pump();
      return;
    }
    setTimeout(() => {
      res.writeHead(step.status, { "content-type": "application/json", ...step.headers });
      res.end(step.body);
    }, step.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data?key=SECRET-KEY`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function options(overrides: Partial<UpstreamOptions> = {}) {
  const sleeps: number[] = [];
  const logs: string[] = [];
  const opts: UpstreamOptions = {
    // Far longer than any answer here takes, even on a loaded machine: only the timeout test sets a short one.
    timeoutMs: 10_000,
    retries: 2,
    backoffMs: (attempt) => attempt * 10,
    sleep: async (ms) => void sleeps.push(ms),
    fetch: (...args) => fetch(...args),
    log: (message) => void logs.push(message),
    ...overrides,
  };
  return { opts, sleeps, logs };
}

const shape = z.object({ ok: z.literal(true) });
const get = (opts: UpstreamOptions) =>
  requestUpstream({ url, label: "Test upstream", accept: "application/json", read: readJson(shape, "Test upstream") }, opts);

const failure = (promise: Promise<unknown>) => rejectionOf(promise, UpstreamError);

describe("requestUpstream", () => {
  it("answers the validated body on success, in one request", async () => {
    count = 0;
    script = () => ({ status: 200, body: '{"ok":true,"extra":1}' });
    const { opts, sleeps } = options();
    await expect(get(opts)).resolves.toEqual({ ok: true });
    expect(count).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it.each([500, 502, 503])("retries HTTP %i twice with backoff, then succeeds", async (status) => {
    count = 0;
    script = (n) => (n < 3 ? { status, body: "{}" } : { status: 200, body: '{"ok":true}' });
    const { opts, sleeps } = options();
    await expect(get(opts)).resolves.toEqual({ ok: true });
    expect(count).toBe(3);
    expect(sleeps).toEqual([10, 20]);
  });

  it("tells onAnswer of each answer that arrived whole (a page), not of a failed attempt", async () => {
    count = 0;
    script = (n) => (n === 1 ? { status: 503, body: "{}" } : { status: 200, body: '{"ok":true}' });
    let answers = 0;
    const { opts } = options({ onAnswer: () => void (answers += 1) });
    await get(opts);
    expect([count, answers]).toEqual([2, 1]);
    await get(opts);
    expect([count, answers]).toEqual([3, 2]);
  });

  it("does not retry a 429 within the read: it asks the next read to wait at least 30 s", async () => {
    count = 0;
    script = () => ({ status: 429, body: "{}" });
    const { opts } = options();
    const error = await failure(get(opts));
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 30_000 });
    expect(count).toBe(1);
  });

  it.each([
    ["120", 120_000],
    ["1", 1_000],
    ["999999", 3_600_000],
  ])("honours Retry-After: %s (capped at an hour), retrying within the read only a short one", async (value, ms) => {
    count = 0;
    script = (n) => (n === 1 ? { status: 503, body: "{}", headers: { "retry-after": value } } : { status: 200, body: '{"ok":true}' });
    const { opts } = options();
    if (ms <= 2_000) {
      await expect(get(opts)).resolves.toEqual({ ok: true });
      expect(count).toBe(2);
    } else {
      expect(await failure(get(opts))).toMatchObject({ status: 503, retryAfterMs: ms });
      expect(count).toBe(1);
    }
  });

  it("reads Retry-After as delay-seconds or an HTTP date", () => {
    const now = Date.parse("2026-11-24T12:00:00Z");
    expect(parseRetryAfter("30", now)).toBe(30_000);
    expect(parseRetryAfter("Tue, 24 Nov 2026 12:02:00 GMT", now)).toBe(120_000);
    expect(parseRetryAfter("Tue, 24 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it("gives up after 2 retries (3 requests in all)", async () => {
    count = 0;
    script = () => ({ status: 503, body: "{}" });
    const { opts, logs } = options();
    const error = await failure(get(opts));
    expect(error.status).toBe(503);
    expect(count).toBe(3);
    expect(logs).toHaveLength(3);
  });

  it.each([400, 401, 403, 404])("does not retry HTTP %i", async (status) => {
    count = 0;
    script = () => ({ status, body: "{}" });
    const { opts } = options();
    const error = await failure(get(opts));
    expect(error).toMatchObject({ kind: "http", status, retryable: false });
    expect(count).toBe(1);
  });

  it("lets the caller mark a 4xx as retryable (Google's 403 rateLimitExceeded)", async () => {
    count = 0;
    script = (n) => (n === 1 ? { status: 403, body: "limit" } : { status: 200, body: '{"ok":true}' });
    const { opts } = options();
    const result = await requestUpstream(
      {
        url,
        label: "Test",
        accept: "application/json",
        read: readJson(shape, "Test"),
        retryableStatus: (s, body) => s === 403 && body === "limit",
      },
      opts,
    );
    expect(result).toEqual({ ok: true });
    expect(count).toBe(2);
  });

  it("times out a slow answer (injected 50 ms timeout) and retries it", async () => {
    count = 0;
    script = () => ({ status: 200, body: '{"ok":true}', delayMs: 400 });
    // Client and server share one event loop: the 50 ms timer always fires before the 400 ms answer.
    const { opts } = options({ timeoutMs: 50 });
    const error = await failure(get(opts));
    expect(error.kind).toBe("timeout");
    expect(count).toBe(3);
  });

  it("retries network errors", async () => {
    count = 0;
    script = (n) => (n < 3 ? "reset" : { status: 200, body: '{"ok":true}' });
    const { opts } = options();
    await expect(get(opts)).resolves.toEqual({ ok: true });
    expect(count).toBe(3);
  });

  it.each([
    ["not JSON", "<html>oops</html>"],
    ["the wrong shape", '{"ok":"yes"}'],
  ])("treats a body that is %s as a failure without retrying", async (_name, body) => {
    count = 0;
    script = () => ({ status: 200, body });
    const { opts } = options();
    const error = await failure(get(opts));
    expect(error.kind).toBe("invalid-body");
    expect(count).toBe(1);
  });

  it("names a body that arrived but could not be read, and does not retry it as a network failure", async () => {
    count = 0;
    script = () => ({ status: 200, body: "BEGIN:VCALENDAR" });
    const { opts, logs } = options();
    const read = () => {
      throw new TypeError("Cannot read properties of undefined (reading 'zone')");
    };
    const error = await failure(requestUpstream({ url, label: "Test upstream", accept: "text/calendar", read }, opts));
    expect(error).toMatchObject({
      kind: "unreadable",
      retryable: false,
      message: "Test upstream arrived but could not be read (TypeError)",
    });
    expect(count).toBe(1);
    expect(logs).toEqual(["[events] Test upstream arrived but could not be read (TypeError) (attempt 1 of 3)"]);
  });

  it("retries a connection that drops in the middle of the body", async () => {
    count = 0;
    script = (n) => (n === 1 ? "reset-mid-body" : { status: 200, body: '{"ok":true}' });
    const { opts, logs } = options();
    await expect(get(opts)).resolves.toEqual({ ok: true });
    expect(count).toBe(2);
    expect(logs[0]).toMatch(/^\[events\] Test upstream could not be reached \(\w+\) \(attempt 1 of 3, retrying\)$/);
  });

  it("never puts the URL (and its key) in errors or logs", async () => {
    count = 0;
    script = () => ({ status: 500, body: "{}" });
    const { opts, logs } = options();
    const error = await failure(get(opts));
    expect(error.message).not.toContain("SECRET-KEY");
    expect(error.message).not.toContain("127.0.0.1");
    for (const line of logs) expect(line).not.toContain("SECRET-KEY");
    const unreachable = await failure(
      get({ ...opts, fetch: () => Promise.reject(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } })) }),
    );
    expect(unreachable.message).toBe("Test upstream could not be reached (ECONNREFUSED)");
  });
});

describe("the body size limit", () => {
  const LIMIT = 1024;
  /** `{"ok":true,"pad":"…"}` of exactly `bytes` bytes, padded with a two-byte character and spaces. */
  const bodyOf = (bytes: number) => {
    const head = '{"ok":true,"pad":"';
    const room = bytes - head.length - 2;
    const text = `${head}${"é".repeat(Math.floor(room / 2))}${" ".repeat(room % 2)}"}`;
    expect(Buffer.byteLength(text)).toBe(bytes);
    return text;
  };

  it("is 5 MB by default", () => {
    expect(MAX_BODY_BYTES).toBe(5 * 1024 * 1024);
  });

  it("accepts a body of exactly the limit, counted in bytes, not characters", async () => {
    count = 0;
    script = () => ({ status: 200, body: bodyOf(LIMIT) });
    const { opts } = options({ maxBodyBytes: LIMIT });
    await expect(get(opts)).resolves.toEqual({ ok: true });
  });

  it("refuses a body one byte over the limit (announced by Content-Length) without retrying", async () => {
    count = 0;
    script = () => ({ status: 200, body: bodyOf(LIMIT + 1) });
    const { opts, logs } = options({ maxBodyBytes: LIMIT });
    const error = await failure(get(opts));
    expect(error).toMatchObject({
      kind: "too-large",
      retryable: false,
      message: "Test upstream answered a body larger than 1024 bytes; refused",
    });
    expect(count).toBe(1);
    expect(logs).toEqual(["[events] Test upstream answered a body larger than 1024 bytes; refused (attempt 1 of 3)"]);
  });

  it("stops reading an endless streamed body (no Content-Length) soon after 5 MB and drops the connection", async () => {
    count = 0;
    endlessWritten = [];
    script = () => "endless";
    const { opts } = options();
    const error = await failure(get(opts));
    // The size ended it, not the clock.
    expect(error.kind).toBe("too-large");
    expect(error.message).toBe("Test upstream answered a body larger than 5 MB; refused");
    expect(count).toBe(1);
    await expect.poll(() => endlessWritten.length).toBe(1);
    // The server stopped at the hang-up: at most the limit plus what sat in socket buffers.
    expect(endlessWritten[0]!).toBeLessThan(3 * MAX_BODY_BYTES);
  });

  it("still reports an error status whose body is too big to read", async () => {
    count = 0;
    script = () => ({ status: 503, body: "x".repeat(200_000) });
    const { opts } = options();
    const error = await failure(get(opts));
    expect(error).toMatchObject({ kind: "http", status: 503, retryable: true });
    expect(count).toBe(3);
  });
});

describe("jitteredBackoff", () => {
  it("stays between half and all of base·2^(n-1)", () => {
    expect(jitteredBackoff(300, () => 0)(1)).toBe(150);
    expect(jitteredBackoff(300, () => 1)(1)).toBe(300);
    expect(jitteredBackoff(300, () => 0.5)(2)).toBe(450);
    expect(jitteredBackoff(300, () => 1)(3)).toBe(1200);
  });
});

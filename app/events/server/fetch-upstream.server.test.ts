import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { jitteredBackoff, readJson, requestUpstream, UpstreamError, type UpstreamOptions } from "./fetch-upstream.server";
import { rejectionOf } from "../../../tests/support/rejection";

// A real loopback server whose answers are scripted per request.
type Script = (count: number) => { status: number; body: string; delayMs?: number } | "reset";
let script: Script = () => ({ status: 200, body: "{}" });
let count = 0;
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
    setTimeout(() => {
      res.writeHead(step.status, { "content-type": "application/json" });
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
    timeoutMs: 200,
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
const get = (opts: UpstreamOptions) => requestUpstream({ url, label: "Test upstream", accept: "application/json", read: readJson(shape, "Test upstream") }, opts);

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

  it.each([429, 500, 502, 503])("retries HTTP %i twice with backoff, then succeeds", async (status) => {
    count = 0;
    script = (n) => (n < 3 ? { status, body: "{}" } : { status: 200, body: '{"ok":true}' });
    const { opts, sleeps } = options();
    await expect(get(opts)).resolves.toEqual({ ok: true });
    expect(count).toBe(3);
    expect(sleeps).toEqual([10, 20]);
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
      { url, label: "Test", accept: "application/json", read: readJson(shape, "Test"), retryableStatus: (s, body) => s === 403 && body === "limit" },
      opts,
    );
    expect(result).toEqual({ ok: true });
    expect(count).toBe(2);
  });

  it("times out a slow answer (injected 50 ms timeout) and retries it", async () => {
    count = 0;
    script = () => ({ status: 200, body: '{"ok":true}', delayMs: 400 });
    const { opts } = options({ timeoutMs: 50 });
    const started = performance.now();
    const error = await failure(get(opts));
    expect(error.kind).toBe("timeout");
    expect(count).toBe(3);
    expect(performance.now() - started).toBeLessThan(1_000);
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

  it("never puts the URL (and its key) in errors or logs", async () => {
    count = 0;
    script = () => ({ status: 500, body: "{}" });
    const { opts, logs } = options();
    const error = await failure(get(opts));
    expect(error.message).not.toContain("SECRET-KEY");
    expect(error.message).not.toContain("127.0.0.1");
    for (const line of logs) expect(line).not.toContain("SECRET-KEY");
    const unreachable = await failure(get({ ...opts, fetch: () => Promise.reject(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } })) }));
    expect(unreachable.message).toBe("Test upstream could not be reached (ECONNREFUSED)");
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

// Answers from memory go out through the fast lane (server/fast-lane.ts) once a page or the API
// has been rendered; what the fast lane sends must be what the Express chain sends: the same
// status, headers and bytes, each answer with its own request id and CSP nonce.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, type RawAnswer } from "../support/raw-http";
import { startServer, type RunningServer } from "../support/start-server";

const NO_SOURCE = { GOOGLE_CALENDAR_ID: "", GOOGLE_API_KEY: "", CALENDAR_ICS_URL: "", GOOGLE_CALENDAR_API_URL: "", TRUST_PROXY: "loopback" };
const CACHED = ["/", "/apply", "/about", "/contact", "/portal", "/events", "/api/calendar/events", "/sitemap.xml", "/robots.txt"];
// Per answer by design: its id, its date, and the API's remaining count.
const PER_ANSWER = new Set(["x-request-id", "date", "ratelimit"]);

let requestCounter = 0;

function decoded(answer: RawAnswer): string {
  const encoding = answer.headers["content-encoding"];
  if (encoding === "gzip") return gunzipSync(answer.bytes).toString();
  if (encoding === "br") return brotliDecompressSync(answer.bytes).toString();
  expect(encoding).toBeUndefined();
  return answer.body;
}

const nonceOf = (answer: RawAnswer) => /'nonce-([^']+)'/.exec(String(answer.headers["content-security-policy"]))?.[1] ?? "";

/** Headers and body with this answer's nonce taken out, for comparing two answers. */
function comparable(answer: RawAnswer) {
  const nonce = nonceOf(answer);
  const strip = (text: string) => (nonce ? text.split(nonce).join("NONCE") : text);
  const headers = Object.entries(answer.headers)
    .filter(([name]) => !PER_ANSWER.has(name))
    .map(([name, value]) => [name, strip(String(value))]);
  return { status: answer.status, headers: Object.fromEntries(headers), body: strip(decoded(answer)) };
}

describe("the fast lane", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(NO_SOURCE);
  });
  afterAll(() => server?.stop());

  /** One request with a unique id; `fast` says whether the fast lane answered it (its log line says so). */
  async function get(target: string, headers: Record<string, string> = {}, method = "GET") {
    const id = `fast-lane-test-${++requestCounter}`;
    const answer = await rawRequest(server.url, target, { method, headers: { "X-Request-Id": id, ...headers } });
    expect(answer.headers["x-request-id"]).toBe(id);
    // The log line is written as the answer goes out; give the pipe a moment.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const line = server.output().split("\n").find((text) => text.includes(`"${id}"`));
    expect(line, `log line for ${target}`).toBeDefined();
    return { answer, fast: line?.includes('"cache":"memory"') ?? false };
  }

  it.each([
    ["gzip", "gzip, deflate, br, zstd"],
    ["brotli where offered", "br"],
    ["no encoding", "identity"],
  ])("sends what the Express chain sends, with %s", async (_name, acceptEncoding) => {
    for (const target of CACHED) {
      // The API and /events are kept for a second: ask twice in a row, so the second is a hit.
      const first = await get(target, { "Accept-Encoding": acceptEncoding });
      const second = await get(target, { "Accept-Encoding": acceptEncoding });
      expect(second.fast, `${target} from memory`).toBe(true);
      expect(comparable(second.answer), target).toEqual(comparable(first.answer));
      if (nonceOf(first.answer)) expect(nonceOf(second.answer)).not.toBe(nonceOf(first.answer));
    }
  });

  it("puts the answer's own nonce on every inline script, in a gzip body that decodes whole", async () => {
    await get("/events");
    const { answer, fast } = await get("/events", { "Accept-Encoding": "gzip" });
    expect(fast).toBe(true);
    const html = decoded(answer);
    const nonces = [...html.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]);
    expect(nonces.length).toBeGreaterThan(1);
    expect(new Set(nonces)).toEqual(new Set([nonceOf(answer)]));
    expect(Number(answer.headers["content-length"])).toBe(answer.bytes.length);
  });

  it("answers HEAD without a body and a matching If-None-Match with 304", async () => {
    const page = await get("/about", { "Accept-Encoding": "gzip" });
    const head = await get("/about", { "Accept-Encoding": "gzip" }, "HEAD");
    expect(head.fast).toBe(true);
    expect(head.answer.bytes.length).toBe(0);
    expect(head.answer.headers["content-length"]).toBe(page.answer.headers["content-length"]);

    const api = await get("/api/calendar/events");
    const etag = String(api.answer.headers.etag);
    const conditional = await get("/api/calendar/events", { "If-None-Match": etag });
    expect(conditional.fast).toBe(true);
    expect(conditional.answer.status).toBe(304);
    expect(conditional.answer.bytes.length).toBe(0);
  });

  it("sends HSTS and upgrade-insecure-requests behind a trusted HTTPS proxy", async () => {
    const https = { "X-Forwarded-Proto": "https" };
    await get("/contact", https);
    const { answer, fast } = await get("/contact", https);
    expect(fast).toBe(true);
    expect(answer.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(answer.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    // And not on plain HTTP, from the same cached page.
    const plain = await get("/contact");
    expect(plain.fast).toBe(true);
    expect(plain.answer.headers["strict-transport-security"]).toBeUndefined();
    expect(plain.answer.headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
  });

  it("leaves bad requests for cached paths to the chain's checks", async () => {
    await get("/apply");
    expect((await get("/apply", { Host: "bad host!" })).answer.status).toBe(400);
    expect((await get("/apply", { "X-Forwarded-Host": "<script>" })).answer.status).toBe(400);
    expect((await get("/apply", {}, "POST")).answer.status).toBe(405);
    // Another query string is another key, rendered by the chain.
    expect((await get("/apply?ref=newsletter")).fast).toBe(false);
  });
});

describe("the fast lane and the API's rate limit", () => {
  const LIMIT = 5;
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...NO_SOURCE, RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => server?.stop());

  it("counts each request once, whichever lane answers, and answers 429 past the limit", async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const answer = await rawRequest(server.url, "/api/calendar/events");
      statuses.push(answer.status);
      remaining.push(/r=(\d+)/.exec(String(answer.headers.ratelimit))?.[1] ?? "");
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(remaining).toEqual(["4", "3", "2", "1", "0", "0", "0"]);
    expect(server.output()).toContain('"cache":"memory"');
  });
});

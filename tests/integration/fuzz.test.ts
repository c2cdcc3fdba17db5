// Fuzz test: 1,000 generated requests (paths, query strings, methods, headers, bodies; odd bytes,
// bad percent-encodings, traversal, unicode, oversized parts) plus a fixed list of known-nasty ones,
// sent raw over TCP to the built server. Every one must be answered below 500 within 1 second (or,
// when it is not valid HTTP, refused by Node's parser: a 4xx or a closed connection), without a stack
// trace, a file path or a file from outside the public folder; and the server must still be up.
// The seed is fixed and printed; FUZZ_SEED=<seed> tries another draw or replays one, FUZZ_SHOW=<n> lists up to n failures (25).
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom, seedFromEnv, type Random } from "../support/prng";
import { rawRequest, type RawAnswer } from "../support/raw-socket";
import { NO_SOURCE } from "../support/environments";
import { startServer, type RunningServer } from "../support/start-server";

const GENERATED = 1_000;
const BOUND_MS = 1_000;

type FuzzRequest = {
  bytes: Buffer;
  /** Knowingly not valid HTTP/1.1: Node's parser may answer 400 or just close the connection. */
  malformed: boolean;
};

// Real files, so that some requests hit the static handlers.
const ASSETS = readdirSync("build/client/assets").filter((name) => /\.(css|js)$/.test(name));
const ROUTES = [
  "/",
  "/about",
  "/apply",
  "/contact",
  "/events",
  "/portal",
  "/sitemap.xml",
  "/robots.txt",
  "/api/calendar/events",
  "/api/calendar/feed.ics",
  "/api/calendar/events/some-id.ics",
  "/favicon.svg",
  "/og-image.png",
  "/healthz",
  "/readyz",
  "/events.data",
  "/_root.data",
  "/__manifest",
  "/no-such-page",
  ...ASSETS.slice(0, 4).map((name) => `/assets/${name}`),
];

// What must never appear in an answer: a stack frame, our own paths, files outside build/client, a
// host name taken from the request.
const LEAKS: Array<[string, RegExp]> = [
  ["a stack frame", /\n\s+at [^\n]*\(?(?:file:\/\/|node:|\/)[^\s)]*:\d+:\d+\)?/],
  ["a file path", new RegExp(`${process.cwd().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|node_modules/`)],
  ["package.json", /"name":\s*"founders-circle-site"/],
  ["server.js", /Process entry: HTTP concerns/],
  ["/etc/passwd", /root:x:0:0:/],
  // Sent as Host, X-Forwarded-Host, Origin and an absolute request-target: never to be echoed into links.
  ["the foreign host it was sent", /evil\.example/],
];

const ODD_ENCODED = [
  "%00",
  "%0a",
  "%0d%0a",
  "%ff",
  "%c0%ae",
  "%e2%80%ae",
  "%25",
  "%2f",
  "%5c",
  "%3c",
  "%22",
  "%20",
  "%7f",
  "%ef%bf%bf",
  "%f0%9f%99%82",
];
const MALFORMED_ENCODED = ["%", "%z", "%4", "%%", "%G1", "%E0%A4%A", "%u0041", "%-1", "%%32%65", "%c0", "%ed%a0%80"];
const TRAVERSAL = [
  "/../",
  "/..%2f",
  "/%2e%2e/",
  "/%2e%2e%2f",
  "/..%5c",
  "/....//",
  "/.%2e/",
  "/%252e%252e/",
  "/..;/",
  "/%c0%ae%c0%ae/",
  "/./",
  "//",
];
const TRAVERSAL_TARGETS = ["package.json", "server.js", "etc/passwd", "build/server/index.js", ".env", "app/env.server.ts"];
const UNICODE = ["é", "中文", "🙂", "\u202e", "\u200b", "Ω", "\ufeff", "ｆｕｌｌ"];
const RAW_ODD = ["\x01", "\x7f", "\t", " ", "\\", '"', "<", ">", "{", "}", "|", "^", "`", "#frag"];

function segment(r: Random): string {
  const letters = "abcdefghijklmnopqrstuvwxyz0123456789-_.~";
  return Array.from({ length: 1 + r.int(12) }, () => letters[r.int(letters.length)]).join("");
}

/** A path and whether it is knowingly not a valid request-target. */
function fuzzPath(r: Random): { path: string; malformed: boolean } {
  let path = r.pick(ROUTES);
  let malformed = false;
  const mutations = r.int(4);
  for (let i = 0; i < mutations; i++) {
    switch (r.int(10)) {
      case 0:
        path += `/${segment(r)}`;
        break;
      case 1:
        path += r.pick(ODD_ENCODED);
        break;
      case 2:
        path = r.chance(0.5) ? path + r.pick(MALFORMED_ENCODED) : `/${r.pick(MALFORMED_ENCODED)}${path}`;
        break;
      case 3: {
        const prefix = r.pick(["", "/assets", "/images", "/api/calendar/events", "/events"]);
        path = `${prefix}${r.pick(TRAVERSAL).repeat(1 + r.int(6))}${r.pick(TRAVERSAL_TARGETS)}`;
        break;
      }
      case 4:
        path += `/${encodeURIComponent(r.pick(UNICODE))}`;
        break;
      case 5:
        // Raw UTF-8 bytes in the request line.
        path += `/${r.pick(UNICODE)}`;
        malformed = true;
        break;
      case 6: {
        const odd = r.pick(RAW_ODD);
        path += odd;
        // Node's parser refuses control characters and spaces in the request-target.
        if ([...odd].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)) malformed = true;
        break;
      }
      case 7:
        path += `/${segment(r).repeat(r.pick([10, 100, 400, 1_500]))}`;
        break;
      case 8:
        path = path.replace(/\//g, r.pick(["//", "/./", "\\", "/%2F"]));
        break;
      default:
        path += r.pick([";jsessionid=1", ".", "..", "~", "/", "/index.html", ".map", ".data", "?"]);
    }
  }
  return { path, malformed };
}

function fuzzQuery(r: Random): string {
  if (r.chance(0.4)) return "";
  const parts: string[] = [];
  const count = 1 + r.int(5);
  for (let i = 0; i < count; i++) {
    switch (r.int(9)) {
      case 0:
        parts.push(`tab=${r.pick(["past", "upcoming", "", "PAST", "%3Cscript%3E", "past%00", "1e999", "__proto__"])}`);
        break;
      case 1:
        parts.push(`all=${r.pick(["1", "0", "true", "", "-1", "9".repeat(400)])}`);
        break;
      case 2:
        parts.push(
          r.pick(["_data=root", "index", "_routes=routes%2Fevents", "_routes=%zz", "_routes=root,routes/nope", "p=%2F&version=x"]),
        );
        break;
      case 3:
        parts.push(`${segment(r)}=${r.pick(ODD_ENCODED)}${r.pick(MALFORMED_ENCODED)}`);
        break;
      case 4:
        parts.push(`${encodeURIComponent(r.pick(UNICODE))}=${encodeURIComponent(r.pick(UNICODE))}`);
        break;
      case 5:
        parts.push(r.pick(["__proto__[x]=1", "constructor[prototype][x]=1", "a[]=1&a[]=2", "a[b][c][d]=1", "&&&=&=", "a=1&a=2&a=3"]));
        break;
      case 6:
        // Huge: up to well past Node's 16 KB header limit.
        parts.push(`q=${"x".repeat(r.pick([1_000, 4_000, 8_000, 15_000, 40_000]))}`);
        break;
      case 7:
        parts.push(Array.from({ length: r.pick([100, 1_000, 2_000]) }, (_, n) => `k${n}=v`).join("&"));
        break;
      default:
        parts.push(`${segment(r)}=${segment(r)}`);
    }
  }
  return `?${parts.join("&")}`;
}

const METHODS = ["GET", "GET", "GET", "GET", "GET", "HEAD", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"];
const ODD_METHODS: Array<[string, boolean]> = [
  // [method, knowingly invalid for Node's parser]
  ["CONNECT", false],
  ["PROPFIND", false],
  ["M-SEARCH", false],
  ["PURGE", false],
  ["QUERY", false],
  ["FOO", true],
  ["get", true],
  ["GETS", true],
  ["G\x00ET", true],
  ["", true],
  ["X".repeat(200), true],
  ["é", true],
];

function fuzzHeaders(r: Random, port: number): { lines: string[]; malformed: boolean } {
  const lines: string[] = [];
  let malformed = false;
  const host = r.int(20);
  if (host === 0) {
    // No Host header.
  } else if (host === 1) {
    lines.push(
      `Host: ${r.pick(["", "evil.example", "[::1", "a b", "x:99999", "localhost:0", "h".repeat(300), "127.0.0.1:1/../x", "ümlaut.example"])}`,
    );
  } else if (host === 2) {
    lines.push(`Host: 127.0.0.1:${port}`, "Host: evil.example");
  } else {
    lines.push(`Host: 127.0.0.1:${port}`);
  }
  const extra = r.int(7);
  for (let i = 0; i < extra; i++) {
    switch (r.int(14)) {
      case 0:
        lines.push(
          `Accept: ${r.pick(["application/json", "*/*", "text/html", "text/x-component", "image/*;q=abc", ",,,", "a".repeat(2_000)])}`,
        );
        break;
      case 1:
        lines.push(
          `Accept-Encoding: ${r.pick(["gzip", "br", "*", "gzip;q=abc, br;q=-1", "identity;q=0", "deflate, gzip, br, zstd", "x".repeat(3_000)])}`,
        );
        break;
      case 2:
        lines.push(`If-None-Match: ${r.pick(['"abc"', "*", "W/", '"' + "a".repeat(1_000), "\xff\xfe"])}`);
        break;
      case 3:
        lines.push(`If-Modified-Since: ${r.pick(["yesterday", "Thu, 01 Jan 1970 00:00:00 GMT", "Sat, 31 Dec 9999 23:59:59 GMT", "-1"])}`);
        break;
      case 4:
        lines.push(
          `Range: ${r.pick([
            "bytes=abc",
            "bytes=0-0",
            "bytes=99999999-",
            "bytes=-1",
            "bytes=5-1",
            Array.from({ length: 200 }, (_, n) => `${n}-${n}`)
              .join(",")
              .replace(/^/, "bytes="),
          ])}`,
        );
        break;
      case 5:
        lines.push(`Cookie: ${r.pick(["a=b", "; ; ;", "a=b; ".repeat(1_500), "__proto__=1", "session=%zz"])}`);
        break;
      case 6:
        lines.push(`User-Agent: ${r.pick(["Googlebot/2.1", "", "curl/8", "Mozilla/5.0 \xe9\xe9", "x".repeat(5_000)])}`);
        break;
      case 7:
        lines.push(
          `X-Forwarded-For: ${r.pick(["1.2.3.4", "garbage", "::1, 10.0.0.1, ::ffff:1.2.3.4", Array.from({ length: 300 }, (_, n) => `10.0.${n % 256}.1`).join(", ")])}`,
        );
        break;
      case 8:
        lines.push(
          r.pick([
            "X-Forwarded-Proto: gopher",
            "X-Forwarded-Host: evil.example",
            'Forwarded: for="[::1]";proto=https',
            "X-HTTP-Method-Override: DELETE",
            "Origin: null",
            "Referer: javascript:alert(1)",
          ]),
        );
        break;
      case 9:
        lines.push(
          r.pick([
            "Upgrade: websocket",
            "Upgrade: h2c",
            "Expect: 100-continue",
            "Expect: foo",
            "TE: trailers",
            "Cache-Control: no-cache",
            "Pragma: no-cache",
            "Authorization: Basic Zm9vOmJhcg==",
          ]),
        );
        break;
      case 10:
        // Header names and values Node's parser refuses.
        lines.push(r.pick(["Bad Name: x", "X-\x01: x", ": empty-name", "X-Ctl: a\x00b", "X-Ctl: a\x7fb", "X-Fold: a\r\n folded"]));
        malformed = true;
        break;
      case 11:
        // A single header over Node's 16 KB limit.
        lines.push(`X-Big: ${"b".repeat(r.pick([8_000, 17_000, 64_000]))}`);
        break;
      case 12:
        for (let n = 0; n < r.pick([50, 200, 1_000]); n++) lines.push(`X-Many-${n}: ${n}`);
        break;
      default:
        lines.push(`X-Odd: ${r.pick(["\xff\xfe\xfd", "é", "<script>", "${jndi:ldap://x}", "../../etc/passwd", "%00"])}`);
    }
  }
  return { lines, malformed };
}

function fuzzBody(r: Random, method: string): { lines: string[]; body: string; malformed: boolean } {
  if (!["POST", "PUT", "PATCH", "DELETE"].includes(method) || r.chance(0.4)) return { lines: [], body: "", malformed: false };
  const body = r.pick(['{"a":1}', "a=b&c=d", "\x00\x01\x02", "x".repeat(2_000), "{", "<xml/>", ""]);
  const type = `Content-Type: ${r.pick(["application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", "??"])}`;
  switch (r.int(6)) {
    case 0: {
      const chunked = body ? `${Buffer.byteLength(body, "latin1").toString(16)}\r\n${body}\r\n0\r\n\r\n` : "0\r\n\r\n";
      return { lines: [type, "Transfer-Encoding: chunked"], body: chunked, malformed: false };
    }
    case 1:
      return {
        lines: [
          type,
          r.pick(["Content-Length: abc", "Content-Length: -1", "Content-Length: 1, 2", "Content-Length: 0\r\nTransfer-Encoding: chunked"]),
        ],
        body: "",
        malformed: true,
      };
    default:
      return { lines: [type, `Content-Length: ${Buffer.byteLength(body, "latin1")}`], body, malformed: false };
  }
}

/**
 * One request. Most fuzz one part (path, query, method, headers) and keep the rest ordinary, so that
 * they get past Node's parser to our code; one in ten fuzzes everything at once.
 */
function fuzzRequest(r: Random, port: number): FuzzRequest {
  const focus = r.pick(["path", "path", "path", "query", "query", "method", "headers", "headers", "chaos"] as const);
  const all = focus === "chaos";
  const { path, malformed: badPath } = all || focus === "path" ? fuzzPath(r) : { path: r.pick(ROUTES), malformed: false };
  const query = all || focus === "query" ? fuzzQuery(r) : r.chance(0.2) ? `?${segment(r)}=${segment(r)}` : "";
  const [method, badMethod] =
    all || focus === "method"
      ? r.chance(0.3)
        ? r.pick(ODD_METHODS)
        : [r.pick(METHODS), false]
      : [r.pick(["GET", "GET", "GET", "HEAD"]), false];
  const version =
    !all || r.chance(0.8) ? "HTTP/1.1" : r.pick(["HTTP/1.0", "HTTP/1.0", "HTTP/2.0", "HTTP/0.9", "http/1.1", "HTTP/1.", "HTTP/1.1 extra"]);
  const badVersion = version !== "HTTP/1.1" && version !== "HTTP/1.0";
  const headers = all || focus === "headers" ? fuzzHeaders(r, port) : { lines: [`Host: 127.0.0.1:${port}`], malformed: false };
  const body = fuzzBody(r, method);
  const head = [`${method} ${path}${query} ${version}`, ...headers.lines, ...body.lines, "Connection: close"].join("\r\n");
  return {
    bytes: Buffer.from(`${head}\r\n\r\n${body.body}`, "latin1"),
    // CONNECT wants an authority, not a path: Node hands it to a "connect" listener or drops it.
    malformed: badPath || badMethod || badVersion || headers.malformed || body.malformed || method === "CONNECT",
  };
}

/** Hand-picked requests that broke (or could break) this kind of server; always sent. */
function fixedRequests(port: number): FuzzRequest[] {
  const host = `Host: 127.0.0.1:${port}`;
  const valid = (line: string, ...headers: string[]): FuzzRequest => ({
    bytes: Buffer.from([line, host, ...headers, "Connection: close", "", ""].join("\r\n"), "latin1"),
    malformed: false,
  });
  const withBody = (line: string, type: string, body: string): FuzzRequest => ({
    bytes: Buffer.from(
      [line, host, `Content-Type: ${type}`, `Content-Length: ${body.length}`, "Connection: close", "", body].join("\r\n"),
      "latin1",
    ),
    malformed: false,
  });
  const raw = (text: string, malformed = true): FuzzRequest => ({ bytes: Buffer.from(text, "latin1"), malformed });
  return [
    valid("TRACE / HTTP/1.1"),
    valid("TRACE /api/calendar/events HTTP/1.1"),
    valid("OPTIONS * HTTP/1.1"),
    valid("OPTIONS / HTTP/1.1"),
    valid("OPTIONS /api/calendar/events HTTP/1.1", "Origin: https://evil.example", "Access-Control-Request-Method: DELETE"),
    valid("DELETE /events HTTP/1.1"),
    withBody(`PUT /assets/${ASSETS[0]} HTTP/1.1`, "text/javascript", "abc"),
    withBody("POST /api/calendar/events HTTP/1.1", "application/json", "{}"),
    withBody("POST /events HTTP/1.1", "application/x-www-form-urlencoded", "a=b"),
    withBody("PATCH /events.data HTTP/1.1", "text/plain", "x"),
    valid("GET /%E0%A4%A HTTP/1.1"),
    valid("GET /% HTTP/1.1"),
    valid("GET /%zz HTTP/1.1"),
    valid("GET /events?tab=%zz HTTP/1.1"),
    valid("GET /assets/%zz HTTP/1.1"),
    valid("GET /api/calendar/events/%zz.ics HTTP/1.1"),
    valid("GET /api/calendar/events/%E0%A4%A.ics HTTP/1.1"),
    valid("GET /assets/../../package.json HTTP/1.1"),
    valid("GET /assets/%2e%2e/%2e%2e/package.json HTTP/1.1"),
    valid("GET /assets/..%2f..%2fserver.js HTTP/1.1"),
    valid("GET /..%2f..%2f..%2f..%2fetc%2fpasswd HTTP/1.1"),
    valid("GET /images/..%5c..%5cpackage.json HTTP/1.1"),
    valid("GET //etc/passwd HTTP/1.1"),
    valid(`GET /events?q=${"x".repeat(15_000)} HTTP/1.1`),
    valid(`GET /${"a".repeat(8_000)} HTTP/1.1`),
    valid("GET * HTTP/1.1"),
    valid("GET http://evil.example/ HTTP/1.1"),
    valid(`GET /assets/${ASSETS[0]} HTTP/1.1`, "Range: bytes=abc"),
    valid("GET / HTTP/1.1", "Expect: 100-continue"),
    valid("GET / HTTP/1.1", "Upgrade: websocket", "Connection: Upgrade"),
    valid("GET /events.data?_routes=%zz HTTP/1.1"),
    valid("GET /__manifest?p=%zz&version=x HTTP/1.1"),
    raw("GET /events HTTP/1.0\r\nConnection: close\r\n\r\n", false),
    raw("GET /api/calendar/events HTTP/1.0\r\n\r\n", false),
    raw(`GET / HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n`, false),
    raw(`GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n`, false),
    raw(`GET / HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n`, false),
    raw(`GET /events HTTP/1.1\r\nConnection: close\r\n\r\n`),
    raw("CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n"),
    raw("GARBAGE\r\n\r\n"),
    raw("\x00\x01\x02\r\n\r\n"),
    raw("GET / HTTP/9.9\r\n\r\n"),
    raw("GET /\r\n\r\n"),
    raw(`GET / HTTP/1.1\r\n${host}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`),
  ];
}

/** The request as a JSON string, long runs shortened ("x{×4000}") and repeated segments left as they are. */
function describeRequest(request: FuzzRequest): string {
  const text = request.bytes.toString("latin1").replace(/(.)\1{19,}/gs, (run, char: string) => `${char}{×${run.length}}`);
  const shown = text.length > 1_500 ? `${text.slice(0, 1_500)}… (${request.bytes.length} bytes in all)` : text;
  return JSON.stringify(shown);
}

/** What is wrong with an answer, or undefined. */
function problem(request: FuzzRequest, answer: RawAnswer): string | undefined {
  if (answer.timedOut) return "no answer and no close within 5 s";
  if (answer.ms >= BOUND_MS) return `answered in ${answer.ms.toFixed(0)} ms (bound: ${BOUND_MS} ms)`;
  if (answer.status === undefined) {
    return request.malformed ? undefined : `connection closed without an answer${answer.error ? ` (${answer.error})` : ""}`;
  }
  if (answer.status >= 500) return `answered ${answer.head.split("\r\n")[0]}`;
  const text = `${answer.head}\r\n\r\n${answer.body.toString("latin1")}`;
  for (const [what, pattern] of LEAKS) if (pattern.test(text)) return `answer shows ${what}`;
  return undefined;
}

describe("fuzzing the running server", () => {
  let server: RunningServer;
  let port = 0;
  const seed = seedFromEnv();

  beforeAll(async () => {
    server = await startServer(NO_SOURCE);
    port = Number(new URL(server.url).port);
    // A fresh process loads its page code on first use; the bound is for a running server.
    for (const path of ["/", "/events", "/api/calendar/events", "/no-such-page", `/assets/${ASSETS[0]}`])
      await fetch(`${server.url}${path}`).then((r) => r.arrayBuffer());
  });
  afterAll(() => server?.stop());

  it(
    `answers ${GENERATED} generated requests and the fixed list below 500, within 1 s each, and stays up`,
    // Thousands of requests one after another, each within 1 s: the whole under a minute quiet.
    { timeout: 120_000 },
    async () => {
      console.log(`[fuzz] seed ${seed} (replay: FUZZ_SEED=${seed} npx vitest run tests/integration/fuzz.test.ts)`);
      const random = seededRandom(seed);
      const requests = [...fixedRequests(port), ...Array.from({ length: GENERATED }, () => fuzzRequest(random, port))];

      const failures: string[] = [];
      const statuses = new Map<string, number>();
      let slowest = 0;
      const started = Date.now();
      for (const [index, request] of requests.entries()) {
        const answer = await rawRequest(port, request.bytes);
        const key = answer.status === undefined ? "closed" : String(answer.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        slowest = Math.max(slowest, answer.ms);
        const wrong = problem(request, answer);
        if (wrong) failures.push(`#${index} ${wrong}\n    request: ${describeRequest(request)}`);
        if (!server.alive()) {
          failures.push(`#${index} the server process exited\n    request: ${describeRequest(request)}\n${server.output().slice(-2_000)}`);
          break;
        }
      }
      const counts = [...statuses]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, n]) => `${status}: ${n}`)
        .join(", ");
      console.log(
        `[fuzz] ${requests.length} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; slowest ${slowest.toFixed(0)} ms; answers ${counts}`,
      );

      // Still up and serving.
      expect(server.alive()).toBe(true);
      const home = await fetch(`${server.url}/`, { signal: AbortSignal.timeout(5_000) });
      expect(home.status).toBe(200);

      const shown = failures.slice(0, Number(process.env.FUZZ_SHOW ?? 25)).join("\n");
      expect(failures, `seed ${seed}: ${failures.length} of ${requests.length} requests failed:\n${shown}`).toEqual([]);
    },
  );
});

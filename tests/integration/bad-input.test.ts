// Whatever arrives, the built server answers with the right 4xx, never a stack, a file path, a
// library banner or a file from outside the client build.
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { rawRequest, type RawAnswer } from "../support/raw-http";
import { rawRequest as rawBytes } from "../support/raw-socket";
import { sharedServer } from "../support/shared-server";

const PACKAGE_JSON = readFileSync("package.json", "utf8");
const SERVER_JS = readFileSync("server.js", "utf8");

/** Nothing in an error answer that tells an attacker what runs here or where. */
function expectNothingRevealed(answer: RawAnswer) {
  for (const leak of [" at ", "node_modules", process.cwd(), "/work/", "Error:", "express", "Express", "URIError", "<pre>", "stack"]) {
    expect(answer.body).not.toContain(leak);
  }
  expect(answer.headers["x-powered-by"]).toBeUndefined();
  expect(answer.headers["server"]).toBeUndefined();
}

describe("bad input", () => {
  const server = sharedServer();
  let asset: string;
  beforeAll(async () => {
    asset = /\/assets\/[\w.-]+\.js/.exec((await rawRequest(server.url, "/")).body)?.[0] ?? "";
    expect(asset).not.toBe("");
  });

  describe("methods: only GET and HEAD", () => {
    it.each(["POST", "PUT", "PATCH", "DELETE", "TRACE", "PROPFIND"])(
      "%s is 405 with Allow on a page, an asset and the API",
      async (method) => {
        for (const target of ["/", "/events", asset, "/api/calendar/events"]) {
          const answer = await rawRequest(server.url, target, { method });
          expect(answer.status, `${method} ${target}`).toBe(405);
          expect(answer.headers["allow"]).toBe("GET, HEAD");
          expect(answer.headers["cache-control"]).toBe("no-store");
          if (target.startsWith("/api/")) expect(JSON.parse(answer.body)).toEqual({ error: "Method not allowed" });
          else expect(answer.body).toBe("Method not allowed\n");
          expectNothingRevealed(answer);
        }
      },
    );

    it("answers OPTIONS with 204 and Allow (no CORS grant)", async () => {
      for (const target of ["/", "/api/calendar/events", "*"]) {
        const answer = await rawRequest(server.url, target, {
          method: "OPTIONS",
          headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "GET" },
        });
        expect(answer.status).toBe(204);
        expect(answer.headers["allow"]).toBe("GET, HEAD");
        expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
        expect(answer.body).toBe("");
      }
    });

    it("answers HEAD like GET, without a body", async () => {
      for (const target of ["/", asset, "/api/calendar/events", "/healthz"]) {
        const head = await rawRequest(server.url, target, { method: "HEAD" });
        expect(head.status, target).toBe(200);
        expect(head.body).toBe("");
        expect(head.headers["content-type"]).toBeDefined();
      }
    });
  });

  describe("malformed percent-encoding is 400", () => {
    it.each(["/%E0%A4%A", "/%", "/events%ZZ", "/assets/%c0%ae%c0%ae/", "/%ff", "/about%"])("%s", async (target) => {
      const answer = await rawRequest(server.url, target);
      expect(answer.status).toBe(400);
      expect(answer.body).toBe("Bad request: malformed percent-encoding in the path\n");
      expectNothingRevealed(answer);
    });

    it("answers JSON under /api", async () => {
      for (const target of ["/api/calendar/events%", "/api/calendar/events/%E0.ics"]) {
        const answer = await rawRequest(server.url, target);
        expect(answer.status).toBe(400);
        expect(answer.headers["content-type"]).toMatch(/^application\/json/);
        expect(JSON.parse(answer.body)).toEqual({ error: "Bad request: malformed percent-encoding in the path" });
      }
    });
  });

  describe("path traversal never leaves the client build", () => {
    it.each([
      "/assets/../package.json",
      "/assets/../../package.json",
      "/assets/..%2f..%2fpackage.json",
      "/assets/..%2F..%2Fserver.js",
      "/assets/%2e%2e/%2e%2e/server.js",
      "/assets/%2e%2e%2f%2e%2e%2fserver.js",
      "/assets/%252e%252e/%252e%252e/server.js",
      "/assets/%252e%252e%252f%252e%252e%252fpackage.json",
      "/assets/..%5c..%5cpackage.json",
      "/assets/....//....//package.json",
      "/../package.json",
      "/..%2fpackage.json",
      "/%2e%2e/%2e%2e/package.json",
      "/images/..%2f..%2f..%2fpackage.json",
      "/images/../../server.js",
      "/assets/%2e%2e/%2e%2e/build/server/index.js",
      "/assets/.vite/manifest.json",
      "/.vite/manifest.json",
    ])("%s", async (target) => {
      const answer = await rawRequest(server.url, target);
      expect([400, 404]).toContain(answer.status);
      expect(answer.body).not.toContain(PACKAGE_JSON.slice(0, 60));
      expect(answer.body).not.toContain(SERVER_JS.slice(0, 60));
      expect(answer.body).not.toContain('"founders-circle-site"');
      expectNothingRevealed(answer);
    });

    it("a miss under /assets is a short 404, not a rendered page", async () => {
      const answer = await rawRequest(server.url, "/assets/../../package.json");
      expect(answer.status).toBe(404);
      expect(answer.body).toBe("Not found\n");
    });
  });

  describe("size limits", () => {
    it("refuses a query string over 2048 characters with 414", async () => {
      expect((await rawRequest(server.url, `/events?tab=past&q=${"a".repeat(2030)}`)).status).toBe(200);
      const answer = await rawRequest(server.url, `/events?q=${"a".repeat(2049)}`);
      expect(answer.status).toBe(414);
      expect(answer.body).toBe("Query string too long\n");
      expect(answer.headers["connection"]).toBe("close");
    });

    it("refuses a request target over 4096 characters with 414", async () => {
      const answer = await rawRequest(server.url, `/${"a".repeat(4100)}`);
      expect(answer.status).toBe(414);
      expect(answer.body).toBe("URI too long\n");
      const api = await rawRequest(server.url, `/api/calendar/events/${"b".repeat(4100)}.ics`);
      expect(api.status).toBe(414);
      expect(JSON.parse(api.body)).toEqual({ error: "URI too long" });
    });

    it("refuses headers over 16 KiB with 431 (Node's limit), still with the basic security headers", async () => {
      const answer = await rawRequest(server.url, "/", { headers: { "X-Padding": "p".repeat(17 * 1024) } });
      expect(answer.status).toBe(431);
      expect(answer.body).toBe("Request header fields too large\n");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
      expectNothingRevealed(answer);
      // The server is still there.
      expect((await rawRequest(server.url, "/healthz")).status).toBe(200);
    });
  });

  it("answers a request Node cannot parse with a short 400 and closes the connection", async () => {
    const { hostname, port } = new URL(server.url);
    for (const raw of ["GARBAGE\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", "GET /\u0000 HTTP/1.1\r\n\r\n"]) {
      const text = await new Promise<string>((resolve, reject) => {
        let data = "";
        const socket = connect(Number(port), hostname, () => socket.write(raw));
        socket.on("data", (chunk: Buffer) => (data += chunk.toString()));
        socket.on("close", () => resolve(data));
        socket.on("error", reject);
      });
      expect(text).toMatch(/^HTTP\/1\.1 400 Bad request\r\n/);
      expect(text).toContain("\r\nX-Content-Type-Options: nosniff\r\n");
      expect(text).toContain("\r\nConnection: close\r\n");
      expect(text.endsWith("\r\n\r\nBad request\n")).toBe(true);
    }
  });

  describe("request line and Host", () => {
    const port = () => Number(new URL(server.url).port);
    const send = (lines: string[]) => rawBytes(port(), Buffer.from(`${lines.join("\r\n")}\r\n\r\n`));

    it.each([
      [
        "GET * (asterisk-form is for OPTIONS)",
        ["GET * HTTP/1.1", "Host: 127.0.0.1", "Connection: close"],
        "Bad request: the request target must be a path",
      ],
      [
        "absolute-form",
        ["GET http://evil.example/ HTTP/1.1", "Host: 127.0.0.1", "Connection: close"],
        "Bad request: the request target must be a path",
      ],
      ["an empty Host", ["GET /events.data HTTP/1.1", "Host: ", "Connection: close"], "Bad request: missing or invalid Host header"],
      ["a broken Host", ["HEAD /no-such-page HTTP/1.1", "Host: [::1", "Connection: close"], "Bad request: missing or invalid Host header"],
      [
        "a Host with a path",
        ["GET / HTTP/1.1", "Host: evil.example/x", "Connection: close"],
        "Bad request: missing or invalid Host header",
      ],
      ["HTTP/1.0 without Host", ["GET / HTTP/1.0"], "Bad request: missing or invalid Host header"],
      [
        "two Host headers (RFC 9112 3.2)",
        ["HEAD /__manifest HTTP/1.1", "Host: 127.0.0.1", "Host: evil.example", "Connection: close"],
        "Bad request: missing or invalid Host header",
      ],
    ])("%s is 400, not 500", async (_label, lines, message) => {
      const answer = await send(lines);
      expect(answer.status).toBe(400);
      if (!lines[0]!.startsWith("HEAD")) expect(answer.body.toString()).toBe(`${message}\n`);
      expect(answer.head).toMatch(/\r\ncontent-security-policy: /i);
      expect(answer.head).not.toMatch(/evil\.example/);
    });
  });

  it("wrote nothing to stderr", () => {
    expect(server.stderr()).toBe("");
  });
});

// Precompressed static files (issue 4): .br and .gz written by the build, served as such with the
// right headers, never compressed twice; pages and the API compressed on the fly; caching per kind.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "../support/shared-server";

const CLIENT = "build/client";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A GET that keeps the body as sent (fetch would decompress it). */
function getRaw(baseUrl: string, target: string, acceptEncoding?: string): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding };
    const req = request({ host: hostname, port, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

function decode(answer: Answer): Buffer {
  const encoding = answer.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(answer.body);
  if (encoding === "gzip") return gunzipSync(answer.body);
  expect(encoding).toBeUndefined();
  return answer.body;
}

describe("the build precompresses the client files", () => {
  const files = filesUnder(CLIENT).filter((f) => /\.(js|css|svg|txt|xml|json|webmanifest)$/.test(f));

  it("writes .br and .gz, equal to the original once decompressed, next to every compressible file over 1 KiB", () => {
    const big = files.filter((f) => statSync(f).size >= 1024);
    expect(big.some((f) => f.endsWith(".js"))).toBe(true);
    expect(big.some((f) => f.endsWith(".css"))).toBe(true);
    for (const file of big) {
      const original = readFileSync(file);
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(original), file).toBe(true);
      expect(gunzipSync(readFileSync(`${file}.gz`)).equals(original), file).toBe(true);
      expect(statSync(`${file}.br`).size).toBeLessThan(original.length);
    }
  });

  it("leaves images alone (already compressed)", () => {
    expect(filesUnder(CLIENT).filter((f) => /\.(png|webp|jpe?g)\.(br|gz)$/.test(f))).toEqual([]);
  });
});

describe("serving", () => {
  const server = sharedServer();
  let script: string;
  let stylesheet: string;
  beforeAll(async () => {
    const html = (await getRaw(server.url, "/")).body.toString();
    script = /\/assets\/entry\.client-[\w-]+\.js/.exec(html)?.[0] ?? "";
    stylesheet = /\/assets\/[\w-]+\.css/.exec(html)?.[0] ?? "";
    expect(script).not.toBe("");
    expect(stylesheet).not.toBe("");
  });

  it.each([
    ["br, gzip", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["identity", undefined],
    [undefined, undefined],
  ])("Accept-Encoding %s: a script and a stylesheet as %s, immutable for a year, compressed once", async (accept, expected) => {
    for (const [target, type] of [
      [script, /^(text|application)\/javascript; charset=utf-8$/i],
      [stylesheet, /^text\/css; charset=utf-8$/i],
    ] as const) {
      const answer = await getRaw(server.url, target, accept);
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe(expected);
      expect(answer.headers["content-type"]).toMatch(type);
      expect(answer.headers["vary"]).toMatch(/Accept-Encoding/i);
      expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
      // One decompression gives the file exactly: no second layer.
      expect(decode(answer).equals(readFileSync(path.join(CLIENT, target)))).toBe(true);
    }
  });

  it("caches other files for an hour", async () => {
    for (const target of ["/favicon.svg", "/og-image.png", "/images/tiles/core-group.webp"]) {
      const answer = await getRaw(server.url, target, "br, gzip");
      expect(answer.status).toBe(200);
      expect(answer.headers["cache-control"]).toBe("public, max-age=3600");
      expect(decode(answer).equals(readFileSync(path.join(CLIENT, target)))).toBe(true);
    }
  });

  it("compresses pages and the API once, with caching a CDN may share", async () => {
    const page = await getRaw(server.url, "/about", "br, gzip");
    expect(page.headers["content-encoding"]).toMatch(/^(br|gzip)$/);
    expect(page.headers["cache-control"]).toBe("public, max-age=300, s-maxage=3600, stale-while-revalidate=86400");
    expect(decode(page).toString().startsWith("<!DOCTYPE html>")).toBe(true);
    const api = await getRaw(server.url, "/api/calendar/events", "gzip");
    expect(api.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(decode(api).toString()).events.length).toBeGreaterThan(0);
  });
});

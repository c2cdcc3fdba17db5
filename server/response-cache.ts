// Serves repeat GETs of pages and the events API from memory, so a busy server spends its time
// sending bytes rather than rendering React or re-serialising JSON for every visitor.
import { randomBytes } from "node:crypto";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { matchesEtag } from "~/events/server/http.server";

/** Renders `path` (path and query) as a fresh GET, with `nonce` on every inline script. */
export type Render = (path: string, nonce: string) => Promise<globalThis.Response>;

export type ResponseCacheOptions = {
  render: Render;
  /** How long a path's answer may be reused, in ms; undefined: never cached. */
  ttlFor: (pathname: string) => number | undefined;
  /** This request's CSP nonce, which replaces the placeholder in cached HTML. */
  nonceOf: (res: Response) => string;
  maxBytes?: number;
};

type Entry = {
  /** False for an answer that is sent to the requests that asked for it, and never kept. */
  keep: boolean;
  status: number;
  headers: [string, string][];
  /** HTML with a placeholder where each request's nonce goes. */
  template?: string;
  /** Bodies without a nonce are compressed once, when cached. */
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  etag?: string;
};

const MAX_KEY_LENGTH = 512;
const COMPRESSIBLE = /^(text\/|application\/(json|xml|ld\+json))/;
// Fast settings for bodies compressed per request (gzip 6 costs ~5x level 1 for ~15% fewer
// bytes); bodies without a nonce are compressed once, at the best ratio.
const FAST_BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } };
const BEST_BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } };

export function createResponseCache({ render, ttlFor, nonceOf, maxBytes = 32 * 1024 * 1024 }: ResponseCacheOptions): RequestHandler {
  // Random per process: it cannot occur in content by chance, nor be guessed to inject a nonce.
  const placeholder = randomBytes(18).toString("base64url");

  const cache = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => entry.identity.length + (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0) + 256,
    // lru-cache shares one render between concurrent misses of the same key.
    fetchMethod: async (path, _stale, { options }) => {
      const entry = await toEntry(await render(path, placeholder), placeholder);
      // An error page, a redirect or a no-store answer goes to the requests that waited for it,
      // without a second render, and is not kept.
      if (!entry.keep) options.ttl = 1;
      return entry;
    },
  });

  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const ttl = ttlFor(req.path);
    const key = req.originalUrl;
    if (ttl === undefined || key.length > MAX_KEY_LENGTH) return next();
    let entry: Entry | undefined;
    try {
      entry = await cache.fetch(key, { ttl });
    } catch {
      entry = undefined;
    }
    if (!entry) return next();
    if (!entry.keep) cache.delete(key);
    send(req, res, entry, entry.template === undefined ? undefined : entry.template.split(placeholder).join(nonceOf(res)));
  };
}

async function toEntry(response: globalThis.Response, placeholder: string): Promise<Entry> {
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  const type = response.headers.get("Content-Type") ?? "";
  const keep = response.status === 200 && !/no-store|private/.test(cacheControl) && !response.headers.has("Set-Cookie");
  const status = response.status;
  const text = await response.text();
  const headers = [...response.headers].filter(([name]) => name !== "content-length" && name !== "content-encoding");
  const etag = response.headers.get("ETag") ?? undefined;
  const identity = Buffer.from(text);
  if (text.includes(placeholder)) return { keep, status, headers, template: text, identity, etag };
  if (!keep || !COMPRESSIBLE.test(type)) return { keep, status, headers, identity, etag };
  return { keep, status, headers, identity, br: brotliCompressSync(identity, BEST_BROTLI), gzip: gzipSync(identity, { level: 9 }), etag };
}

function send(req: Request, res: Response, entry: Entry, html: string | undefined) {
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding");
  // An origin answers If-None-Match whatever the request's Cache-Control says (RFC 9110 13.1.2).
  if (entry.keep && entry.etag && matchesEtag(req.get("If-None-Match") ?? null, entry.etag)) {
    res.removeHeader("Content-Type");
    res.status(304).end();
    return;
  }
  const { encoding, body } = encode(req, entry, html);
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.status(entry.status);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

function encode(req: Request, entry: Entry, html: string | undefined): { encoding?: "br" | "gzip"; body: Buffer } {
  if (html !== undefined) {
    const identity = Buffer.from(html);
    const wanted = req.acceptsEncodings("br", "gzip", "identity");
    if (wanted === "br") return { encoding: "br", body: brotliCompressSync(identity, FAST_BROTLI) };
    if (wanted === "gzip") return { encoding: "gzip", body: gzipSync(identity, { level: 1 }) };
    return { body: identity };
  }
  const { br, gzip } = entry;
  if (br && gzip) {
    const wanted = req.acceptsEncodings("br", "gzip", "identity");
    if (wanted === "br") return { encoding: "br", body: br };
    if (wanted === "gzip") return { encoding: "gzip", body: gzip };
  }
  return { body: entry.identity };
}

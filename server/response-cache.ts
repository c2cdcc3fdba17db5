// Serves repeat GETs of pages and the events API from memory, so a busy server spends its time
// sending bytes rather than rendering React or re-serialising JSON for every visitor. Fresh
// answers are also read by the fast lane (fast-lane.ts), which sends them without Express.
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { answerFrom, toCachedResponse, type CachedResponse } from "./cached-response";

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

export type ResponseCache = {
  /** Answers GETs of cached paths, rendering once on a miss; passes everything else on. */
  middleware: RequestHandler;
  /** The kept, unexpired answer for a request target (path and query), without rendering. */
  fresh: (target: string) => CachedResponse | undefined;
};

const MAX_KEY_LENGTH = 512;

export function createResponseCache({ render, ttlFor, nonceOf, maxBytes = 32 * 1024 * 1024 }: ResponseCacheOptions): ResponseCache {
  // Random per process: it cannot occur in content by chance, nor be guessed to inject a nonce.
  // As long as a nonce (base64 of 16 bytes), so the gzip template's holes fit it.
  const placeholder = randomBytes(18).toString("base64url").slice(0, 24);

  const cache = new LRUCache<string, CachedResponse>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => entry.byteLength + 256,
    // lru-cache shares one render between concurrent misses of the same key.
    fetchMethod: async (path, _stale, { options }) => {
      const entry = await toCachedResponse(await render(path, placeholder), placeholder);
      // An error page, a redirect or a no-store answer goes to the requests that waited for it,
      // without a second render, and is not kept.
      if (!entry.keep) options.ttl = 1;
      return entry;
    },
  });

  const middleware = async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const ttl = ttlFor(req.path);
    const key = req.originalUrl;
    if (ttl === undefined || key.length > MAX_KEY_LENGTH) return next();
    let entry: CachedResponse | undefined;
    try {
      entry = await cache.fetch(key, { ttl });
    } catch {
      entry = undefined;
    }
    if (!entry) return next();
    if (!entry.keep) cache.delete(key);
    const answer = answerFrom(
      entry,
      { method: req.method, ifNoneMatch: req.get("If-None-Match"), acceptEncoding: req.get("Accept-Encoding") },
      nonceOf(res),
    );
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.writeHead(answer.status);
    res.end(answer.body);
  };

  return {
    middleware,
    fresh(target) {
      if (target.length > MAX_KEY_LENGTH) return undefined;
      const entry = cache.get(target);
      return entry?.keep ? entry : undefined;
    },
  };
}

// The API's rate limit per client address, shared by the Express chain and the in-memory fast lane
// (server/fast-lane.ts), so a client has one count whichever path answers it. Counting is
// express-rate-limit's MemoryStore and its IPv6 subnet key; the policy and its headers are ours.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import { ipKeyGenerator, MemoryStore, type Options } from "express-rate-limit";
import { isApiPath, sendError } from "./errors";

const WINDOW_MS = 60_000;

export type RateDecision = {
  limited: boolean;
  /** Seconds until the client's window resets. */
  resetSeconds: number;
  /** RateLimit and RateLimit-Policy (IETF draft 8), plus Retry-After when limited. */
  headers: [string, string][];
};

export type ApiRateLimit = {
  /**
   * Counts `request`, from client address `ip`, and says whether it is over the limit. A request is
   * counted once, however many times it asks (the fast lane may hand it on to Express).
   */
  hit: (request: IncomingMessage, ip: string) => Promise<RateDecision>;
};

export function createApiRateLimit(perMinute: number): ApiRateLimit {
  const store = new MemoryStore();
  // The store reads only windowMs from the middleware options it is usually given.
  store.init({ windowMs: WINDOW_MS } as Options);
  const name = `${perMinute}-in-1min`;
  const counted = new WeakMap<IncomingMessage, Promise<RateDecision>>();
  const count = async (ip: string): Promise<RateDecision> => {
    const key = ipKeyGenerator(ip);
    const { totalHits, resetTime } = await store.increment(key);
    const resetSeconds = Math.max(0, Math.ceil(((resetTime?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
    const limited = totalHits > perMinute;
    const headers: [string, string][] = [
      ["RateLimit", `"${name}"; r=${Math.max(perMinute - totalHits, 0)}; t=${resetSeconds}`],
      ["RateLimit-Policy", `"${name}"; q=${perMinute}; w=${WINDOW_MS / 1000}; pk=:${partitionKey(key)}:`],
    ];
    if (limited) headers.push(["Retry-After", String(resetSeconds)]);
    return { limited, resetSeconds, headers };
  };
  return {
    hit(request, ip) {
      let decision = counted.get(request);
      if (!decision) {
        decision = count(ip);
        counted.set(request, decision);
      }
      return decision;
    },
  };
}

/** The draft's partition key: a short hash, so the header never shows the address itself. */
function partitionKey(key: string): string {
  return Buffer.from(createHash("sha256").update(key).digest("hex").slice(0, 12)).toString("base64");
}

/** /api/* answers each client address (req.ip, as TRUST_PROXY allows) at most the limit a minute; then 429. */
export function apiRateLimitMiddleware(limit: ApiRateLimit): RequestHandler {
  return async (req, res, next) => {
    if (!isApiPath(req.path)) return next();
    try {
      const decision = await limit.hit(req, req.ip ?? req.socket.remoteAddress ?? "");
      for (const [name, value] of decision.headers) res.setHeader(name, value);
      if (!decision.limited) return next();
      sendError(req, res, 429, `Too many requests; try again in ${decision.resetSeconds} seconds.`);
    } catch (error) {
      next(error);
    }
  };
}

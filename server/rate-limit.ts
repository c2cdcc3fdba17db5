// Every route is limited per client address (server/client.ts, as TRUST_PROXY allows; IPv6 by /56
// subnet): pages, files and downloads generously (PAGE_RATE_LIMIT_PER_MINUTE), the events JSON API
// more strictly (RATE_LIMIT_PER_MINUTE). Beyond it: 429 with Retry-After. No RateLimit headers on
// the answers under the limit: those are stored bytes that CDNs keep and give to other clients.
// A browser's speculative load of a page (Sec-Purpose: prefetch, from the pages' speculation rules)
// is refused to a client already over its limit, but it is not counted: a visitor who rests the
// pointer on many links must never be refused the page they then click.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import { siteRoutes, pathOf } from "~/site-routes";
import { pathOfTarget, sendError } from "./errors";
import type { Step } from "./step";

const WINDOW_MS = 60_000;
const API_PATHS = new Set(siteRoutes.filter((route) => route.rateLimit === "api").map(pathOf));
const PROBES = new Set(["/healthz", "/readyz"]);

const isApi = (req: IncomingMessage) => API_PATHS.has(pathOfTarget(req.url));

/** A browser's speculative load (`Sec-Purpose: prefetch`, or `prefetch;prerender`). */
export function isSpeculative(req: IncomingMessage): boolean {
  const purpose = req.headers["sec-purpose"];
  return typeof purpose === "string" && /^\s*prefetch\b/i.test(purpose);
}

function limiter(
  perMinute: number,
  address: (req: IncomingMessage) => string,
  skip: (req: IncomingMessage) => boolean,
  { countSpeculative }: { countSpeculative: boolean },
): Step {
  const keyOf = (req: IncomingMessage) => ipKeyGenerator(address(req));
  const middleware = rateLimit({
    windowMs: WINDOW_MS,
    limit: perMinute,
    standardHeaders: false,
    legacyHeaders: false,
    skip,
    keyGenerator: keyOf,
    handler: (req: IncomingMessage & { rateLimit?: { resetTime?: Date } }, res: ServerResponse) =>
      refuse(req, res, req.rateLimit?.resetTime),
  });
  // Written for Express's request and response, it reads only what a plain one has here: our key, our skip, our handler.
  const counting = middleware as unknown as Step;
  if (countSpeculative) return counting;
  return (req, res, next) => {
    if (skip(req) || !isSpeculative(req)) return counting(req, res, next);
    // Looked at, not counted: the memory store answers at once.
    Promise.resolve(middleware.getKey(keyOf(req))).then((hits) => {
      if (hits && hits.totalHits >= perMinute) refuse(req, res, hits.resetTime);
      else next();
    }, next);
  };
}

function refuse(req: IncomingMessage, res: ServerResponse, reset: Date | undefined): void {
  const seconds = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
  sendError(req, res, 429, `Too many requests; try again in ${seconds} seconds.`, { "Retry-After": String(seconds) });
}

export type RateLimits = { pagesPerMinute: number; apiPerMinute: number; address: (req: IncomingMessage) => string };

/** The two limits, each counting only its own requests; probes are never limited, speculative page loads never counted. */
export function rateLimits({ pagesPerMinute, apiPerMinute, address }: RateLimits): Step[] {
  return [
    // The speculation rules never name the API: a speculative API request is counted like any other.
    limiter(apiPerMinute, address, (req) => !isApi(req), { countSpeculative: true }),
    limiter(pagesPerMinute, address, (req) => isApi(req) || PROBES.has(pathOfTarget(req.url)), { countSpeculative: false }),
  ];
}

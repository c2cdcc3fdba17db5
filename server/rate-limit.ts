// Every route is limited per client address (server/client.ts, as TRUST_PROXY allows; IPv6 by /56
// subnet): pages, files and downloads generously (PAGE_RATE_LIMIT_PER_MINUTE), the events JSON API
// more strictly (RATE_LIMIT_PER_MINUTE). Beyond it: 429 with Retry-After. No RateLimit headers on
// the answers under the limit: those are stored bytes that CDNs keep and give to other clients.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import { siteRoutes, pathOf } from "~/site-routes";
import { pathOfTarget, sendError } from "./errors";
import type { Step } from "./step";

const WINDOW_MS = 60_000;
const API_PATHS = new Set(siteRoutes.filter((route) => route.rateLimit === "api").map(pathOf));
const PROBES = new Set(["/healthz", "/readyz"]);

const isApi = (req: IncomingMessage) => API_PATHS.has(pathOfTarget(req.url));

function limiter(perMinute: number, address: (req: IncomingMessage) => string, skip: (req: IncomingMessage) => boolean): Step {
  const middleware = rateLimit({
    windowMs: WINDOW_MS,
    limit: perMinute,
    standardHeaders: false,
    legacyHeaders: false,
    skip,
    keyGenerator: (req: IncomingMessage) => ipKeyGenerator(address(req)),
    handler(req: IncomingMessage & { rateLimit?: { resetTime?: Date } }, res: ServerResponse) {
      const reset = req.rateLimit?.resetTime;
      const seconds = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
      sendError(req, res, 429, `Too many requests; try again in ${seconds} seconds.`, { "Retry-After": String(seconds) });
    },
  });
  // Written for Express's request and response, it reads only what a plain one has here: our key, our skip, our handler.
  return middleware as unknown as Step;
}

export type RateLimits = { pagesPerMinute: number; apiPerMinute: number; address: (req: IncomingMessage) => string };

/** The two limits, each counting only its own requests; probes are never limited. */
export function rateLimits({ pagesPerMinute, apiPerMinute, address }: RateLimits): Step[] {
  return [
    limiter(apiPerMinute, address, (req) => !isApi(req)),
    limiter(pagesPerMinute, address, (req) => isApi(req) || PROBES.has(pathOfTarget(req.url))),
  ];
}

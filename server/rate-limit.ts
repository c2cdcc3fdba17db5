// Every route is limited per client address (req.ip, as TRUST_PROXY allows; IPv6 by /56 subnet):
// pages, files and downloads generously (PAGE_RATE_LIMIT_PER_MINUTE), the events JSON API more
// strictly (RATE_LIMIT_PER_MINUTE). Beyond it: 429 with Retry-After. No RateLimit headers on the
// answers under the limit: those are stored bytes that CDNs keep and give to other clients.
import type { Request, RequestHandler } from "express";
import { rateLimit } from "express-rate-limit";
import { siteRoutes, pathOf } from "~/site-routes";
import { sendError } from "./errors";

const WINDOW_MS = 60_000;
const API_PATHS = new Set(siteRoutes.filter((route) => route.rateLimit === "api").map(pathOf));
const PROBES = new Set(["/healthz", "/readyz"]);

const isApi = (req: Request) => API_PATHS.has(req.path);

function limiter(perMinute: number, skip: (req: Request) => boolean): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit: perMinute,
    standardHeaders: false,
    legacyHeaders: false,
    skip,
    handler(req, res) {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
      sendError(req, res, 429, `Too many requests; try again in ${seconds} seconds.`, { "Retry-After": String(seconds) });
    },
  });
}

export type RateLimits = { pagesPerMinute: number; apiPerMinute: number };

/** The two limits, each counting only its own requests; probes are never limited. */
export function rateLimits({ pagesPerMinute, apiPerMinute }: RateLimits): RequestHandler[] {
  return [limiter(apiPerMinute, (req) => !isApi(req)), limiter(pagesPerMinute, (req) => isApi(req) || PROBES.has(req.path))];
}

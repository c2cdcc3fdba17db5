// Every route is limited per client address (server/client.ts, as TRUST_PROXY allows; IPv6 by /56
// subnet), each request counted in exactly one budget a minute:
// - the events JSON API and the editor's "Sign in with GitHub" addresses, strictly (RATE_LIMIT_PER_MINUTE);
// - a browser's speculative load (Sec-Purpose: prefetch) of a page the speculation rules name, in
//   a budget of its own (SPECULATIVE_RATE_LIMIT_PER_MINUTE), so a visitor who rests the pointer on
//   many links is never refused the page they then click; refused, too, once the client is over
//   its page limit;
// - everything else: pages, files, downloads, and any "speculative" load the rules never make
//   (PAGE_RATE_LIMIT_PER_MINUTE). No header lifts a limit.
// Beyond a budget: 429 with Retry-After. No RateLimit headers on the answers under the limit: those
// are stored bytes that CDNs keep and give to other clients. The counts are rate-limiter-flexible's
// memory store (one process); a fleet that needs one limit swaps in its Redis store.
import type { IncomingMessage, ServerResponse } from "node:http";
import { matchPath } from "react-router";
import ipaddr from "ipaddr.js";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { speculatedPaths } from "~/lib/speculation-rules";
import { ADMIN_AUTH_CALLBACK_PATH, ADMIN_AUTH_PATH, ADMIN_AUTH_TOKEN_PATH, siteRoutes, pathOf } from "~/site-routes";
import { pathOfTarget, sendError } from "./errors";
import type { Step } from "./step";

const WINDOW_SECONDS = 60;
const API_PATHS = new Set([
  ...siteRoutes.filter((route) => route.rateLimit === "api").map(pathOf),
  // The sign-in's addresses: the token's calls GitHub, and none is a page anyone browses.
  ADMIN_AUTH_PATH,
  ADMIN_AUTH_CALLBACK_PATH,
  ADMIN_AUTH_TOKEN_PATH,
]);
const PROBES = new Set(["/healthz", "/readyz"]);

/** Which budget refused a request (the metrics count refusals by it). */
export type LimitName = "api" | "pages" | "speculative";

/** A browser's speculative load (`Sec-Purpose: prefetch`, or `prefetch;prerender`). */
export function isSpeculative(req: IncomingMessage): boolean {
  const purpose = req.headers["sec-purpose"];
  return typeof purpose === "string" && /^\s*prefetch\b/i.test(purpose);
}

// Most pages are one fixed path: a set lookup; only the patterned ones (an event's page) are matched.
const exactSpeculated = new Set(speculatedPaths.filter((pattern) => !pattern.includes(":")));
const patternedSpeculated = speculatedPaths.filter((pattern) => pattern.includes(":"));

/** Whether the pages' speculation rules can name this path (their URL patterns, a query allowed). */
export function isSpeculatedPath(path: string): boolean {
  return (
    exactSpeculated.has(path) || patternedSpeculated.some((pattern) => matchPath({ path: pattern, caseSensitive: true, end: true }, path))
  );
}

/**
 * The key a client is counted under: its address, or for IPv6 its /56 (one subscriber's usual
 * allocation: a client that owns many addresses is one client). IPv4-mapped IPv6 is the IPv4 address.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return address;
  // Any spelling of a mapped address (::ffff:1.2.3.4, ::ffff:102:304) is its IPv4 client.
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const prefix = v6.parts.slice(0, 4);
  prefix[3] = (prefix[3] ?? 0) & 0xff00;
  return `${prefix.map((group) => group.toString(16)).join(":")}::/56`;
}

export type RateLimits = {
  pagesPerMinute: number;
  apiPerMinute: number;
  speculativePerMinute: number;
  address: (req: IncomingMessage) => string;
  /** Told of each refusal, by the budget that refused it. */
  onRefused?: (limit: LimitName) => void;
};

/** The rate limits as one step of the front chain; probes are never limited. */
export function rateLimits({ pagesPerMinute, apiPerMinute, speculativePerMinute, address, onRefused }: RateLimits): Step {
  const budgets: Record<LimitName, RateLimiterMemory> = {
    api: new RateLimiterMemory({ points: apiPerMinute, duration: WINDOW_SECONDS }),
    pages: new RateLimiterMemory({ points: pagesPerMinute, duration: WINDOW_SECONDS }),
    speculative: new RateLimiterMemory({ points: speculativePerMinute, duration: WINDOW_SECONDS }),
  };

  function refuse(req: IncomingMessage, res: ServerResponse, limit: LimitName, msBeforeNext: number): void {
    onRefused?.(limit);
    const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
    sendError(req, res, 429, `Too many requests; try again in ${seconds} seconds.`, { "Retry-After": String(seconds) });
  }

  return (req, res, next) => {
    const path = pathOfTarget(req.url);
    if (PROBES.has(path)) return next();
    const key = clientKey(address(req));
    let limit: LimitName = "pages";
    if (API_PATHS.has(path)) limit = "api";
    // The speculation rules never name the API, a file or a download: those count like any other request.
    else if (isSpeculative(req) && isSpeculatedPath(path)) limit = "speculative";

    const consume = () =>
      budgets[limit].consume(key).then(
        () => next(),
        (rejection: unknown) => {
          if (!(rejection instanceof RateLimiterRes)) return next(rejection);
          refuse(req, res, limit, rejection.msBeforeNext);
        },
      );
    if (limit !== "speculative") return void consume();
    // A client over its page limit would be refused the page itself: loading it ahead is refused too (looked at, not counted).
    budgets.pages.get(key).then((pages) => {
      if (pages && pages.consumedPoints >= pagesPerMinute) refuse(req, res, "pages", pages.msBeforeNext);
      else void consume();
    }, next);
  };
}

// What a request may be before it reaches a route: GET or HEAD, a decodable path, a bounded URL
// and a usable Host. (The API's rate limit is in rate-limit.ts.)
import type { IncomingMessage } from "node:http";
import { pathOfTarget, sendError } from "./errors";
import type { Step } from "./step";

export const ALLOWED_METHODS = "GET, HEAD";
/** Longest request target (path and query) we answer; longer is 414. */
export const MAX_URL_LENGTH = 4096;
/** Longest query string; no page or API reads more than a few short parameters. */
export const MAX_QUERY_LENGTH = 2048;

/**
 * Pages, files and the API are read-only: GET and HEAD; OPTIONS says so (and no more: no CORS header, so no
 * cross-origin preflight is ever approved); anything else is 405. The addresses `ownMethods` names (the sign-in's)
 * answer every method themselves, further on.
 */
export function onlyReadMethods(ownMethods: (path: string) => boolean = () => false): Step {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || ownMethods(pathOfTarget(req.url))) return next();
    if (req.method === "OPTIONS") {
      res.writeHead(204, { Allow: ALLOWED_METHODS, "Cache-Control": "no-store" }).end();
      return;
    }
    sendError(req, res, 405, "Method not allowed", { Allow: ALLOWED_METHODS });
  };
}

export type TargetProblem = { status: 400 | 414; message: string } | undefined;

/** Checks a raw request target (as on the request line): length and percent-encoding of the path. */
export function checkTarget(target: string): TargetProblem {
  if (target.length > MAX_URL_LENGTH) return { status: 414, message: "URI too long" };
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (queryAt !== -1 && target.length - queryAt - 1 > MAX_QUERY_LENGTH) return { status: 414, message: "Query string too long" };
  try {
    decodeURIComponent(path);
  } catch {
    return { status: 400, message: "Bad request: malformed percent-encoding in the path" };
  }
  return undefined;
}

// A host name or an IPv4 address, or a bracketed IPv6 address, with an optional port.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Whether a Host (or X-Forwarded-Host) value can name this server in a URL. */
export function isValidHost(value: string | undefined): boolean {
  return value !== undefined && value.length <= 255 && HOST.test(value) && URL.canParse(`http://${value}/`);
}

/** Host, and the X-Forwarded-Host a trusted proxy wrote (if any), can each name this server. */
export function hostsAreValid(host: string | undefined, forwardedHost: string | undefined): boolean {
  return isValidHost(host) && (forwardedHost === undefined || isValidHost(forwardedHost));
}

/** How many Host header lines the request carried. */
function hostCount(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === "host") count += 1;
  return count;
}

/**
 * The request line and Host must make a URL: an origin-form target (a path; OPTIONS * is answered
 * earlier), a decodable path of bounded length, and a usable Host (React Router builds the
 * request's URL from it). X-Forwarded-Host counts only as a trusted proxy wrote it (server/client.ts).
 */
export function wellFormedTarget(forwardedHost: (req: IncomingMessage) => string | undefined): Step {
  return (req, res, next) => {
    const target = req.url ?? "";
    let problem: TargetProblem = target.startsWith("/")
      ? checkTarget(target)
      : { status: 400, message: "Bad request: the request target must be a path" };
    // RFC 9112 3.2: more than one Host is a 400 (Node keeps the first; a URL built from all of them fails).
    if (!problem && (hostCount(req.rawHeaders) !== 1 || !hostsAreValid(req.headers.host, forwardedHost(req)))) {
      problem = { status: 400, message: "Bad request: missing or invalid Host header" };
    }
    if (!problem) return next();
    // The connection may carry more of whatever sent this; do not keep it.
    sendError(req, res, problem.status, problem.message, { Connection: "close" });
  };
}

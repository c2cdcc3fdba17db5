// Answers requests for fresh cached pages and API answers straight from the HTTP server's request
// event, without Express's middleware chain: the same status, headers and bytes the chain would
// send, with this request's own id, nonce, rate count and log line. Whatever it cannot answer that
// way (a miss, an unusual request, a client over its limit) goes to Express untouched.
//
// The security headers are learned from the chain itself (`learn`, mounted just before the cache),
// once per scheme, so helmet stays their only author.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Express, RequestHandler } from "express";
import proxyaddr from "proxy-addr";
import type { Logger } from "~/logger.server";
import { answerFrom, type CachedResponse } from "./cached-response";
import { isApiPath } from "./errors";
import { hostsAreValid } from "./limits";
import { loggedPath, REQUEST_ID_HEADER, requestIdOf } from "./logging";
import type { ApiRateLimit } from "./rate-limit";
import type { ResponseCache } from "./response-cache";
import { newNonce } from "./security";

export type FastLaneOptions = {
  /** The Express application: what the fast lane cannot answer goes there, with its proxy trust. */
  app: Express;
  cache: ResponseCache;
  rateLimit: ApiRateLimit;
  logger: Logger;
};

export type FastLane = {
  /** Express middleware, just before the response cache: learns the headers the chain sets. */
  learn: RequestHandler;
  /** The HTTP server's request listener. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
};

/** Headers the chain sets per request, which the fast lane sets itself. */
const PER_REQUEST = new Set(["x-request-id", "ratelimit", "ratelimit-policy", "retry-after", "connection", "date", "content-length"]);

/** The chain's headers with each nonce cut out: [name, value parts] (one part: no nonce). */
type LearnedHeaders = [string, string[]][];

type Trust = (address: string | undefined, hop: number) => boolean;

export function createFastLane({ app, cache, rateLimit, logger }: FastLaneOptions): FastLane {
  // Index 0: plain HTTP; 1: HTTPS (HSTS, upgrade-insecure-requests).
  const learned: [LearnedHeaders | undefined, LearnedHeaders | undefined] = [undefined, undefined];
  const trust = app.get("trust proxy fn") as Trust;
  const forwardedHostTrusted = app.enabled("trust proxy");

  const learn: RequestHandler = (req, res, next) => {
    const index = req.secure ? 1 : 0;
    learned[index] ??= learnHeaders(res, res.locals.cspNonce);
    next();
  };

  const write = (req: IncomingMessage, res: ServerResponse, entry: CachedResponse, headers: LearnedHeaders, rate: [string, string][], started: number) => {
    const id = requestIdOf(req.headers["x-request-id"]);
    const nonce = newNonce();
    const answer = answerFrom(
      entry,
      { method: req.method ?? "GET", ifNoneMatch: header(req, "if-none-match"), acceptEncoding: header(req, "accept-encoding") },
      nonce,
    );
    const flat: string[] = [REQUEST_ID_HEADER, id];
    for (const [name, parts] of headers) flat.push(name, parts.length === 1 ? (parts[0] as string) : parts.join(nonce));
    for (const [name, value] of rate) flat.push(name, value);
    for (const [name, value] of answer.headers) flat.push(name, value);
    res.writeHead(answer.status, flat);
    res.end(answer.body);
    logger.info(
      { req: { id, method: req.method, path: loggedPath(req.url) }, res: { status: answer.status }, durationMs: Date.now() - started, cache: "memory" },
      "request",
    );
  };

  // Never a thrown error out of the request listener (it would end the process): the chain retries.
  const send: typeof write = (req, res, ...rest) => {
    try {
      write(req, res, ...rest);
    } catch (error) {
      logger.error({ err: error, req: { method: req.method, path: loggedPath(req.url) } }, "fast lane failed; handing the request to Express");
      if (res.headersSent) res.destroy();
      else app(req, res);
    }
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const started = Date.now();
    const target = req.url ?? "";
    const entry = (req.method === "GET" || req.method === "HEAD") && target.startsWith("/") ? cache.fresh(target) : undefined;
    const secure = entry ? isSecure(req, trust) : false;
    const headers = learned[secure ? 1 : 0];
    const forwardedHost = forwardedHostTrusted ? header(req, "x-forwarded-host") : undefined;
    if (!entry || !headers || !hostsAreValid(req.headers.host, forwardedHost)) {
      app(req, res);
      return;
    }
    if (!isApiPath(pathOf(target))) {
      send(req, res, entry, headers, [], started);
      return;
    }
    rateLimit.hit(req, proxyaddr(req, trust) ?? "").then(
      // Over the limit: the chain answers 429 (the request is already counted).
      (decision) => (decision.limited ? app(req, res) : send(req, res, entry, headers, decision.headers, started)),
      // A store failure: the chain's limiter meets the same failure and answers it.
      () => app(req, res),
    );
  };

  return { learn, listener };
}

/** The headers set on `res` so far, less the per-request ones, with `nonce` cut out of values. */
function learnHeaders(res: ServerResponse, nonce: string): LearnedHeaders {
  const headers: LearnedHeaders = [];
  // Node has getRawHeaderNames (the names as set, e.g. by helmet) since 15.13; @types/node 20 lacks it.
  for (const name of (res as ServerResponse & { getRawHeaderNames: () => string[] }).getRawHeaderNames()) {
    if (PER_REQUEST.has(name.toLowerCase())) continue;
    const value = res.getHeader(name);
    for (const one of Array.isArray(value) ? value : [String(value)]) headers.push([name, nonce ? one.split(nonce) : [one]]);
  }
  return headers;
}

/** req.secure as Express computes it: TLS, or X-Forwarded-Proto from a trusted proxy. */
export function isSecure(req: IncomingMessage, trust: Trust): boolean {
  const socket = req.socket as IncomingMessage["socket"] & { encrypted?: boolean };
  if (!trust(socket.remoteAddress, 0)) return socket.encrypted === true;
  const forwarded = header(req, "x-forwarded-proto");
  if (!forwarded) return socket.encrypted === true;
  return forwarded.split(",", 1)[0]?.trim() === "https";
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

const pathOf = (target: string) => {
  const queryAt = target.indexOf("?");
  return queryAt === -1 ? target : target.slice(0, queryAt);
};

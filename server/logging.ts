// One JSON line per request (pino-http): id, method, path without its query, status, duration.
// Every response carries its id in X-Request-Id, so a visitor's report finds the line.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import type { Logger } from "~/logger.server";

export const REQUEST_ID_HEADER = "X-Request-Id";
/** An incoming id is kept only when it is a short token that cannot forge a log line or a header. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;
/** Paths are logged up to this length (URLs are refused beyond 4096 characters anyway). */
const MAX_LOGGED_PATH = 256;

export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The path of a request target, without its query (which may carry anything). */
export function loggedPath(url: string | undefined): string {
  const path = (url ?? "").split("?", 1)[0] ?? "";
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
}

const isProbe = (url: string | undefined) => url === "/healthz" || url === "/readyz";

export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const id = requestIdOf(req.headers["x-request-id"]);
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // The logged request is only this: no headers (cookies), no query string.
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, path: loggedPath(req.url) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customAttributeKeys: { responseTime: "durationMs" },
    // Load balancers probe often: their successes are debug lines.
    customLogLevel: (req, res, error) => {
      if (error || res.statusCode >= 500) return "error";
      if (isProbe(req.url)) return "debug";
      return "info";
    },
    // A 5xx without a thrown error gets a made-up one from pino-http: leave that out.
    customErrorObject: (_req, res, _error, value: Record<string, unknown>) => (res.err ? value : { ...value, err: undefined }),
    customSuccessMessage: () => "request",
    customErrorMessage: () => "request failed",
  });
}

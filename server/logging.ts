// One JSON line per request when its response closes: id, method, path without its query, status,
// duration. Every response carries its id in X-Request-Id, so a visitor's report finds the line.
// Written for the front chain (server/site.ts) on Node's own request and response: pino-http's
// child logger per request cost a sixth of a stored answer's time under a flood.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Logger } from "~/logger.server";
import type { Step } from "./step";

declare module "node:http" {
  interface IncomingMessage {
    /** The request's id (X-Request-Id), set by the front chain's first step. */
    id?: string;
  }
  interface ServerResponse {
    /** The error behind a 5xx, for the request's log line (server/errors.ts). */
    err?: Error;
  }
}

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

const isProbe = (path: string) => path === "/healthz" || path === "/readyz";

/**
 * The first step: the request's id (kept from a safe X-Request-Id, else a new UUID) and its log line;
 * `onSent` is told the status of each response sent whole (the metrics count them).
 */
export function requestLogging(logger: Logger, onSent?: (status: number) => void): Step {
  return (req: IncomingMessage, res: ServerResponse, next) => {
    const started = performance.now();
    const id = requestIdOf(req.headers["x-request-id"]);
    const path = loggedPath(req.url);
    req.id = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    res.once("close", () => {
      if (res.writableFinished) onSent?.(res.statusCode);
      const line = {
        req: { id, method: req.method, path },
        res: { status: res.statusCode },
        durationMs: Math.round(performance.now() - started),
        ...(res.err ? { err: res.err } : {}),
        // The client went away before the whole answer was sent.
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (res.err || res.statusCode >= 500) logger.error(line, "request failed");
      // Load balancers probe often: their successes are debug lines.
      else if (isProbe(path)) logger.debug(line, "request");
      else logger.info(line, "request");
    });
    next();
  };
}

// Error answers of the HTTP layer: a short sentence (JSON under /api, plain text elsewhere),
// never a stack, a path or a library's banner. 5xx are logged with the request id. They work on
// Node's own request and response, so the front chain (server/site.ts) and Express share them.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { ErrorRequestHandler } from "express";

export const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");

/** The path of a request target, without its query. */
export const pathOfTarget = (url: string | undefined): string => {
  const target = url ?? "/";
  const queryAt = target.indexOf("?");
  return queryAt === -1 ? target : target.slice(0, queryAt);
};

export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const api = isApiPath(pathOfTarget(req.url));
  const body = api ? JSON.stringify({ error: message }) : `${message}\n`;
  res.statusCode = status;
  for (const [name, value] of Object.entries({ "Cache-Control": "no-store", ...headers })) res.setHeader(name, value);
  res.setHeader("Content-Type", api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  // Node leaves the body out of an answer to HEAD.
  res.end(body);
}

/** The status an error thrown by a library asks for, when it is a client error (4xx). */
function clientStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === "number" ? status : statusCode;
  return typeof value === "number" && value >= 400 && value < 500 ? value : undefined;
}

/** Answers an error that reached the end of a chain; replaces Express's default HTML page (which shows stacks outside production). */
export function answerError(error: unknown, req: IncomingMessage, res: ServerResponse): void {
  const status = error instanceof URIError ? 400 : (clientStatus(error) ?? 500);
  // The request's log line carries it (server/logging.ts).
  if (status >= 500) res.err = error instanceof Error ? error : new Error(String(error));
  if (res.headersSent) {
    // Too late for a status: cut the response so the client sees it incomplete.
    res.destroy();
    return;
  }
  const message =
    status >= 500 ? "Something went wrong on our side. Please try again in a moment." : (STATUS_CODES[status] ?? "Bad request");
  sendError(req, res, status, message);
}

/** Express's last handler. */
export const finalErrorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => answerError(error, req, res);

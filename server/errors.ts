// Error answers of the HTTP layer: a short sentence (JSON under /api, plain text elsewhere),
// never a stack, a path or a library's banner. 5xx are logged with the request id.
import { STATUS_CODES } from "node:http";
import type { ErrorRequestHandler, Request, Response } from "express";

export const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");

export function sendError(req: Request, res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set({ "Cache-Control": "no-store", ...headers });
  if (isApiPath(req.path)) {
    res.json({ error: message });
  } else {
    res.type("text/plain; charset=utf-8").send(`${message}\n`);
  }
}

/** The status an error thrown by a library asks for, when it is a client error (4xx). */
function clientStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === "number" ? status : statusCode;
  return typeof value === "number" && value >= 400 && value < 500 ? value : undefined;
}

/** Express's last handler: replaces its default HTML page (which shows stacks outside production). */
export const finalErrorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const status = error instanceof URIError ? 400 : (clientStatus(error) ?? 500);
  // pino-http logs it with the request line (and its id).
  if (status >= 500) res.err = error instanceof Error ? error : new Error(String(error));
  if (res.headersSent) {
    // Too late for a status: cut the response so the client sees it incomplete.
    res.destroy();
    return;
  }
  const message =
    status >= 500 ? "Something went wrong on our side. Please try again in a moment." : (STATUS_CODES[status] ?? "Bad request");
  sendError(req, res, status, message);
};

// Error answers of the HTTP layer: a short sentence (JSON under /api, plain text elsewhere),
// never a stack, a path or a library's banner. 5xx are logged with the request id. One function,
// answerError, answers every error that reaches the end of the chain (server/site.ts).
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";

export const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");

/** The path of a request target, without its query. */
export const pathOfTarget = (url: string | undefined): string => {
  const target = url ?? "/";
  const queryAt = target.indexOf("?");
  return queryAt === -1 ? target : target.slice(0, queryAt);
};

const SERVER_ERROR = "Something went wrong on our side. Please try again in a moment.";

/** The sentence for an error status: ours for 5xx, the standard reason phrase for 4xx. */
const messageFor = (status: number) => (status >= 500 ? SERVER_ERROR : (STATUS_CODES[status] ?? "Bad request"));

/** An error's body and type: `{"error": message}` under /api, the plain sentence elsewhere. */
function errorBody(format: "json" | "text", message: string): { body: string; type: string } {
  return format === "json"
    ? { body: JSON.stringify({ error: message }), type: "application/json; charset=utf-8" }
    : { body: `${message}\n`, type: "text/plain; charset=utf-8" };
}

export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const { body, type } = errorBody(isApiPath(pathOfTarget(req.url)) ? "json" : "text", message);
  res.statusCode = status;
  for (const [name, value] of Object.entries({ "Cache-Control": "no-store", ...headers })) res.setHeader(name, value);
  res.setHeader("Content-Type", type);
  res.setHeader("Content-Length", Buffer.byteLength(body));
  // Node leaves the body out of an answer to HEAD.
  res.end(body);
}

/** The same error answer as a fetch Response, for React Router's listener, which answers with one. */
export function errorResponse(status: number, format: "json" | "text"): Response {
  const { body, type } = errorBody(format, messageFor(status));
  return new Response(body, { status, headers: { "Content-Type": type, "Cache-Control": "no-store" } });
}

/** The status an error thrown by a library asks for, when it is a client error (4xx). */
function clientStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === "number" ? status : statusCode;
  return typeof value === "number" && value >= 400 && value < 500 ? value : undefined;
}

/** Answers an error that reached the end of the chain (a step's, or React Router's listener's): never its message or stack. */
export function answerError(error: unknown, req: IncomingMessage, res: ServerResponse): void {
  const status = error instanceof URIError ? 400 : (clientStatus(error) ?? 500);
  // The request's log line carries it (server/logging.ts).
  if (status >= 500) res.err = error instanceof Error ? error : new Error(String(error));
  if (res.headersSent) {
    // Too late for a status: cut the response so the client sees it incomplete.
    res.destroy();
    return;
  }
  sendError(req, res, status, messageFor(status));
}

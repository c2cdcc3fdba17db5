// The HTTP server's limits, start-up line and graceful stop.
//
// On SIGTERM or SIGINT: stop accepting connections, let in-flight requests finish (answering them
// with Connection: close), close idle keep-alive connections, and exit 0 when the last one ends,
// or after the grace period (the timings' shutdownGraceMs, 8 s) by closing whatever is left. A
// second signal closes at once.
import { createServer, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "~/logger.server";
import { PRODUCTION_TIMINGS } from "~/timings.server";

/** Request line plus headers, in bytes (Node answers 431 beyond it). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** A client has this long to send its request headers (slow-loris), and this long for the whole request. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

export function createHttpServer(listener: RequestListener, draining: () => boolean): Server {
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // How often Node checks the two timeouts above (default 30 s).
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      inFlight.add(res);
      res.once("close", () => inFlight.delete(res));
      if (draining()) res.setHeader("Connection", "close");
      listener(req, res);
    },
  );
  const inFlight = new Set<ServerResponse>();
  responsesInFlight.set(server, inFlight);
  server.on("clientError", answerClientError);
  return server;
}

const responsesInFlight = new WeakMap<Server, Set<ServerResponse>>();

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request header fields too large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request timeout"],
  HPE_HEADERS_TIMEOUT: [408, "Request timeout"],
};

/**
 * A request Node could not parse (or that was too big or too slow) never reaches Express: answer it
 * ourselves, briefly and with the basic security headers, instead of Node's bare default.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ""] ?? [400, "Bad request"];
  const body = `${message}\n`;
  socket.end(
    [
      `HTTP/1.1 ${status} ${message}`,
      "Content-Type: text/plain; charset=utf-8",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Cache-Control: no-store",
      "X-Content-Type-Options: nosniff",
      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
  );
}

export type ServeOptions = {
  port: number;
  host: string;
  logger: Logger;
  /** The first line an operator reads. */
  describe: (port: number) => string;
  /** After a signal, requests still running after this long have their connections closed. */
  graceMs?: number;
  exit?: (code: number) => void;
};

/** True from the first signal on: /readyz answers 503 and responses close their connection. */
export function drainFlag(): { draining: () => boolean; start: () => void } {
  let draining = false;
  return { draining: () => draining, start: () => void (draining = true) };
}

/** Listens, prints the start-up line, and stops gracefully on SIGTERM/SIGINT. */
export function serve(
  server: Server,
  drain: { start: () => void },
  { port, host, logger, describe, graceMs = PRODUCTION_TIMINGS.shutdownGraceMs, exit = (code) => process.exit(code) }: ServeOptions,
): void {
  server.listen(port, host, () => {
    const address = server.address();
    const actual = typeof address === "object" && address ? address.port : port;
    // Plain text on purpose: the one line a person reads in a terminal.
    console.log(describe(actual));
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: closing every connection now");
      server.closeAllConnections();
      exit(0);
      return;
    }
    stopping = true;
    drain.start();
    // Requests in flight are answered with Connection: close, so their clients do not reuse the socket.
    for (const res of responsesInFlight.get(server) ?? []) if (!res.headersSent) res.setHeader("Connection", "close");
    logger.info({ signal }, "shutting down: no new connections; finishing requests in flight");
    server.close(() => {
      logger.info("stopped");
      exit(0);
    });
    // close() drops idle keep-alive connections once; busy ones go idle as their responses end.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    sweep.unref();
    setTimeout(() => {
      logger.warn({ graceMs }, "requests still running after the grace period: closing their connections");
      server.closeAllConnections();
      exit(0);
    }, graceMs).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

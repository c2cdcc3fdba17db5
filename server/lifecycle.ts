// The HTTP server's limits, start-up line and graceful stop.
//
// On SIGTERM or SIGINT: stop accepting connections, let in-flight requests finish (answering them
// with Connection: close), close idle keep-alive connections, and exit 0 when the last one ends,
// or after SHUTDOWN_GRACE_MS by closing whatever is left. A second signal closes at once.
import { createServer, type RequestListener, type Server } from "node:http";
import type { Logger } from "~/logger.server";

/** Request line plus headers, in bytes (Node answers 431 beyond it). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** A client has this long to send its request headers (slow-loris), and this long for the whole request. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Orchestrators usually wait 10 s after SIGTERM before SIGKILL; leave room to exit. */
export const SHUTDOWN_GRACE_MS = 8_000;

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
      if (draining()) res.setHeader("Connection", "close");
      listener(req, res);
    },
  );
  return server;
}

export type ServeOptions = {
  port: number;
  host: string;
  logger: Logger;
  /** The first line an operator reads. */
  describe: (port: number) => string;
  exit?: (code: number) => void;
};

/** True from the first signal on: /readyz answers 503 and responses close their connection. */
export function drainFlag(): { draining: () => boolean; start: () => void } {
  let draining = false;
  return { draining: () => draining, start: () => void (draining = true) };
}

/** Listens, prints the start-up line, and stops gracefully on SIGTERM/SIGINT. */
export function serve(server: Server, drain: { start: () => void }, { port, host, logger, describe, exit = (code) => process.exit(code) }: ServeOptions): void {
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
    logger.info({ signal }, "shutting down: no new connections; finishing requests in flight");
    server.close(() => {
      logger.info("stopped");
      exit(0);
    });
    // close() drops idle keep-alive connections once; busy ones go idle as their responses end.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    sweep.unref();
    setTimeout(() => {
      logger.warn({ graceMs: SHUTDOWN_GRACE_MS }, "requests still running after the grace period: closing their connections");
      server.closeAllConnections();
      exit(0);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

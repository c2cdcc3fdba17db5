// The fakes' HTTP server: on loopback, on a free port, keeping an idle connection as the services they stand for do.
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Google, GitHub and a calendar host keep an idle connection far longer than Node's 5 s default: with that default, a
 * client that reuses a connection a busy machine left idle for about 5 s meets it closing (ECONNRESET).
 */
const KEEP_ALIVE_MS = 60_000;

export type LoopbackServer = {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Ends every connection, idle or not, and stops listening. */
  close: () => Promise<void>;
};

export async function startLoopbackServer(listener: RequestListener): Promise<LoopbackServer> {
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * The engines' only way off the machine: each is told to send every non-loopback request through
 * this proxy on loopback, which refuses them all and keeps what was asked (a host, or a URL) so the
 * suite can fail on it by name. Loopback requests go direct and never reach it.
 */
export type DenyProxy = {
  /** host:port, for the engine's proxy settings. */
  address: string;
  /** What the engines tried to reach since the last take(), oldest first; emptied. */
  take: () => string[];
  close: () => Promise<void>;
};

export async function startDenyProxy(): Promise<DenyProxy> {
  let attempts: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    attempts.push(`${request.method} ${request.url}`);
    response.writeHead(403, { connection: "close" }).end();
  });
  // HTTPS and WebSockets ask for a tunnel first.
  server.on("connect", (request: http.IncomingMessage, socket: Socket) => {
    attempts.push(`CONNECT ${request.url}`);
    socket.end("HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n");
  });
  // Anything that is not HTTP (a proxy spoken to over TLS, say) is refused too, and still counted.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    attempts.push(`a connection that is not plain HTTP (${error.code ?? error.message})`);
    socket.destroy();
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    take() {
      const taken = attempts;
      attempts = [];
      return taken;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

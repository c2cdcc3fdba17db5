// @ts-check
// The "bare" baseline: a plain node:http server, in its own process like the production server,
// that answers every request with one response captured from production, byte for byte. It gets
// it over IPC from serving.js, answers {port} when listening, and exits when its parent goes away.
import http from "node:http";

/**
 * @typedef {object} Replay
 * @property {number} status
 * @property {string} statusMessage
 * @property {string[]} headers Flat [name, value, …], hop-by-hop headers already removed.
 * @property {string} bodyBase64
 */

if (!process.send) throw new Error("bare-server.js is started by scripts/bench/serving.js over IPC");

process.once("message", (message) => {
  const replay = /** @type {Replay} */ (message);
  const body = Buffer.from(replay.bodyBase64, "base64");
  const server = http.createServer((_request, response) => {
    response.writeHead(replay.status, replay.statusMessage, replay.headers).end(body);
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once("disconnect", stop);
  process.once("SIGTERM", stop);
});

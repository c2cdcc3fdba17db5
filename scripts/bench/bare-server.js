// @ts-check
// The "bare" baseline: a plain node:http server, in its own process like the production
// server, that replays responses captured from production byte for byte. It gets them over
// IPC from serving.js, answers {port} when listening, and exits when its parent goes away.
import http from "node:http";

/**
 * @typedef {object} Replay
 * @property {string} path The request target it answers, or "*" for any.
 * @property {number} status
 * @property {string} statusMessage
 * @property {string[]} headers Flat [name, value, …], hop-by-hop headers already removed.
 * @property {boolean} chunked Whether production sent the body chunked (else with Content-Length).
 * @property {string} bodyBase64
 */

if (!process.send) throw new Error("bare-server.js is started by scripts/bench/serving.js over IPC");

process.once("message", (message) => {
  const replays = /** @type {{ replays: Replay[] }} */ (message).replays;
  /** @type {Map<string, Replay & { body: Buffer }>} */
  const byPath = new Map(replays.map((replay) => [replay.path, { ...replay, body: Buffer.from(replay.bodyBase64, "base64") }]));

  const server = http.createServer((request, response) => {
    const replay = byPath.get(request.url ?? "") ?? byPath.get("*");
    if (!replay) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(replay.status, replay.statusMessage, replay.headers);
    if (replay.chunked) {
      // write() before end() keeps Transfer-Encoding: chunked, as production sent it.
      response.write(replay.body);
      response.end();
    } else {
      response.end(replay.body);
    }
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

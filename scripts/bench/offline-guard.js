// @ts-check
// Keeps Chromium on this machine. Its flags send every non-loopback request to a "proxy" that is this sink (it accepts and immediately
// drops connections, counting them), and make every host name but localhost unresolvable. Loopback is on the proxy bypass list, so the site
// is reached directly. Lighthouse's network-requests audit is checked for strays as well.
import net from "node:net";

/** blocked: attempts to reach a non-loopback host so far, by host. @returns {Promise<{ chromeFlags: string[], blocked: () => Record<string, number>, stop: () => Promise<void> }>} */
export async function startOfflineGuard() {
  /** @type {Map<string, number>} */
  const blocked = new Map();
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  const sink = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.setTimeout(1_000, () => socket.destroy());
    // Read the proxy request line ("CONNECT host:443 HTTP/1.1" or "GET http://host/… HTTP/1.1") to say what was attempted, then drop the
    // connection without answering.
    socket.once("data", (chunk) => {
      const [method = "?", target = "?"] = chunk.toString("latin1").split("\r\n", 1)[0]?.split(" ") ?? [];
      const host = method !== "CONNECT" && URL.canParse(target) ? new URL(target).host : target;
      blocked.set(host, (blocked.get(host) ?? 0) + 1);
      socket.destroy();
    });
  });
  await new Promise((resolve) => sink.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (sink.address());
  /** @returns {Promise<void>} */
  const stop = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      sink.close(() => resolve());
    });
  return {
    chromeFlags: [
      `--proxy-server=http://127.0.0.1:${address.port}`,
      "--proxy-bypass-list=127.0.0.1;localhost;[::1]",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
    ],
    blocked: () => Object.fromEntries(blocked),
    stop,
  };
}

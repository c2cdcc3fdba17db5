// A gate on loopback in front of a fake upstream: it holds every request until the test opens it,
// then passes each on and back unchanged. A test that must see a read still going (the loading
// state, a request in flight) holds it here, instead of a fake that answers after a delay (a race
// with the machine's speed).
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export type Gate = {
  /** The gate's origin: the upstream's URL with its origin swapped for this one. */
  url: string;
  /** Requests held so far. */
  held: () => number;
  /** Passes the held requests on, and every later one. */
  open: () => void;
  /** Holds every later request again. */
  shut: () => void;
  close: () => Promise<void>;
};

/** A gate in front of `target` (an origin: http://127.0.0.1:port), shut unless `open`. */
export async function startGate(target: string, { open = false } = {}): Promise<Gate> {
  const waiting: (() => void)[] = [];
  let opened = open;
  const server = createServer((req, res) => {
    const pass = () => {
      const upstream = request(new URL(req.url ?? "/", target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    };
    if (opened) pass();
    else waiting.push(pass);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    open() {
      opened = true;
      for (const pass of waiting.splice(0)) pass();
    },
    shut: () => void (opened = false),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

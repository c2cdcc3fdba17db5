// The metrics' own listener (METRICS_PORT, on METRICS_HOST: loopback unless the operator says
// otherwise; off when METRICS_PORT is unset). Apart from the public port, so no visitor can read
// the site's insides and no rate limit, log line or security header of the front chain applies to
// Prometheus's scrapes. It answers GET /metrics and 404 to everything else.
import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";
import { pathOfTarget } from "./errors";

const METRICS_PATH = "/metrics";

function createMetricsServer(registry: Registry): Server {
  return createServer((req, res) => {
    const plain = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };
    if (pathOfTarget(req.url) !== METRICS_PATH) return void res.writeHead(404, plain).end("Not found\n");
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { ...plain, Allow: "GET, HEAD" }).end();
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      () => res.writeHead(500, plain).end("Metrics could not be collected\n"),
    );
  });
}

/** Listens on the metrics port; resolves with the port it got (METRICS_PORT=0: any free one). */
export function serveMetrics(
  registry: Registry,
  { port, host }: { port: number; host: string },
): Promise<{ server: Server; port: number }> {
  const server = createMetricsServer(registry);
  // Never what keeps the process alive: the public server's close decides when it exits.
  server.unref();
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : port });
    });
  });
}

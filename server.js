// Process entry. The HTTP layer (headers, limits, logs, probes, static files, shutdown) is typed
// code in server/, built by Vite with the app into build/server/index.js; this file only chooses
// the production build or, in development, Vite's dev server, and starts it.
import process from "node:process";

const DEVELOPMENT = process.env.NODE_ENV === "development";
const BUILD_PATH = "./build/server/index.js";
const CLIENT_ROOT = "build/client";

/** @typedef {typeof import("./server/app")} ServerBundle */

async function load() {
  if (!DEVELOPMENT) return { build: /** @type {ServerBundle} */ (await import(BUILD_PATH)) };
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  const build = /** @type {ServerBundle} */ (await viteDevServer.ssrLoadModule("./server/app.ts"));
  // Loaded per request, so edits to routes and the server bundle apply without a restart.
  /** @type {import("./server/site").Handler} */
  const handler = async (req, res, parts) => {
    try {
      const source = /** @type {ServerBundle} */ (await viteDevServer.ssrLoadModule("./server/app.ts"));
      await source.app(req, res, parts);
    } catch (error) {
      if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
      throw error;
    }
  };
  // Connect middleware: (req, res, next), a step of the chain like the others.
  /** @type {import("./server/step").Step} */
  const devMiddleware = (req, res, next) => viteDevServer.middlewares(req, res, next);
  return { build, handler, devMiddleware };
}

async function main() {
  /** @type {{ build: ServerBundle; handler?: import("./server/site").Handler; devMiddleware?: import("./server/step").Step }} */
  let loaded;
  try {
    loaded = await load();
  } catch (error) {
    // A bad configuration: the message names every bad variable; a stack would only hide it.
    if (error instanceof Error && error.name === "EnvError") {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { build, handler = build.app, devMiddleware } = loaded;
  const { env, logger, createSite, createHttpServer, drainFlag, serve, render, serveMetrics } = build;

  const drain = drainFlag();
  const site = createSite({
    env,
    logger,
    handler,
    devMiddleware,
    clientRoot: DEVELOPMENT ? undefined : CLIENT_ROOT,
    // In development every request renders afresh, so edits show at once.
    render: DEVELOPMENT ? undefined : render,
    readiness: { draining: drain.draining, startedAt: Date.now() },
  });
  const server = createHttpServer(site.listener, drain.draining);
  // Every static page rendered before listening, so no visitor (and not /readyz) waits for a render.
  // A failure here is the first request's to report, not start-up's. Meanwhile, each in a process of its
  // own, the calendar worker restores the saved copy and starts the first read, and the share card worker
  // starts and draws a first card, so no visitor and no link preview waits for either.
  await Promise.all([site.store?.warm().catch(() => undefined), site.startEvents(), DEVELOPMENT ? undefined : site.warmShareCards()]);
  // The metrics' own listener (off unless METRICS_PORT is set), up before the public one.
  if (site.metrics && env.METRICS_PORT !== undefined) {
    const metrics = await serveMetrics(site.metrics.registry, { port: env.METRICS_PORT, host: env.METRICS_HOST });
    const shown = env.METRICS_HOST.includes(":") ? `[${env.METRICS_HOST}]` : env.METRICS_HOST;
    console.log(`Metrics for Prometheus at http://${shown}:${metrics.port}/metrics`);
  }
  serve(server, drain, {
    port: env.PORT,
    host: env.HOST,
    logger,
    graceMs: env.timings.shutdownGraceMs,
    describe: (port) => `Server listening on http://localhost:${port} (${DEVELOPMENT ? "development" : "production"})`,
  });
}

await main();

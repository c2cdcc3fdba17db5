// Process entry: HTTP concerns (compression, static files, caching, shutdown) around the
// React Router handler, which Vite builds from server/app.ts.
import compression from "compression";
import express from "express";

const DEVELOPMENT = process.env.NODE_ENV === "development";
const BUILD_PATH = "./build/server/index.js";

async function loadHandler() {
  if (DEVELOPMENT) {
    const vite = await import("vite");
    const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
    const { env } = await viteDevServer.ssrLoadModule("./server/app.ts");
    /** @type {import("express").RequestHandler} */
    const handler = async (req, res, next) => {
      try {
        const source = await viteDevServer.ssrLoadModule("./server/app.ts");
        return await source.app(req, res, next);
      } catch (error) {
        if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
        next(error);
      }
    };
    return { env, middlewares: [viteDevServer.middlewares, handler] };
  }
  const { env, app } = await import(BUILD_PATH);
  return {
    env,
    middlewares: [
      // Hashed file names never change: cache them for a year.
      express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false, redirect: false }),
      express.static("build/client", { maxAge: "1h", index: false, redirect: false }),
      app,
    ],
    assetsMount: "/assets",
  };
}

async function main() {
  let loaded;
  try {
    loaded = await loadHandler();
  } catch (error) {
    if (error instanceof Error && error.name === "EnvError") {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { env, middlewares, assetsMount } = loaded;

  const server = express();
  server.disable("x-powered-by");
  server.use(compression());
  if (assetsMount) {
    const [assets, ...rest] = middlewares;
    server.use(assetsMount, assets);
    server.use(...rest);
  } else {
    server.use(...middlewares);
  }

  const listener = server.listen(env.PORT, env.HOST, () => {
    const address = listener.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    console.log(`Server listening on http://localhost:${port} (${DEVELOPMENT ? "development" : "production"})`);
  });

  const shutdown = () => {
    listener.close(() => process.exit(0));
    listener.closeIdleConnections();
    // In-flight requests get a grace period; then we leave regardless.
    setTimeout(() => process.exit(0), 9_000).unref();
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}

await main();

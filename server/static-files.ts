// The built client files, precompressed at build time (brotli preferred, then gzip; see
// scripts/precompress.ts). Hashed /assets are immutable for a year; the rest (favicon, images) an hour.
// Paths are resolved by serve-static inside its root: `..`, encoded or not, never leaves it.
import path from "node:path";
import type { RequestHandler } from "express";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import { sendError } from "./errors";

const ONE_YEAR = 31_536_000_000;
const ONE_HOUR = 3_600_000;

function precompressed(root: string, serveStatic: { maxAge: number; immutable?: boolean }): RequestHandler {
  return expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ["br", "gzip"],
    index: false,
    serveStatic: { ...serveStatic, index: false, redirect: false, dotfiles: "ignore", fallthrough: true },
  }) as RequestHandler;
}

/** Mounts the client build: /assets (a miss there is a plain 404, not a page), then the other files. */
export function staticFiles(clientRoot: string): express.Router {
  const router = express.Router();
  const root = path.resolve(clientRoot);
  router.use("/assets", precompressed(path.join(root, "assets"), { maxAge: ONE_YEAR, immutable: true }));
  router.use("/assets", (req, res) => sendError(req, res, 404, "Not found"));
  router.use(precompressed(root, { maxAge: ONE_HOUR }));
  return router;
}

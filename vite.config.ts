import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { contentEditor } from "./app/content/editor-plugin.server";
import { siteContent } from "./app/content/plugin.server";
import { precompress } from "./scripts/precompress";
import { workerChunks } from "./scripts/worker-chunks";

export default defineConfig(({ command, isSsrBuild }) => ({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  // The built server carries its dependencies' code (what it uses, in a few files) instead of having
  // Node find and load each package's many files at every start: a start's CPU 1.85 -> 1.55 s, its
  // calendar worker's 0.8 -> 0.5 s. Left to Node: native code (resvg); the share cards' drawing chain
  // (satori, lru-cache, React: its process loads no chunk of the server's, scripts/worker-chunks.ts);
  // and packages that use CommonJS's own names (__filename, a require inside a function), which break
  // in an ES module bundle only when that line runs (tests/integration/server-bundle.test.ts).
  // Vite's development server loads packages as Node does.
  ssr:
    command === "build"
      ? {
          noExternal: true,
          external: ["@resvg/resvg-js", "satori", "lru-cache", "react", "react-dom", "pino", "prom-client", "write-file-atomic"],
        }
      : undefined,
  build: {
    // Never a data: URL: the pages' CSP allows images from the site itself only (img-src 'self'), so the
    // cards' pin (app.css) is a hashed file like every other asset.
    assetsInlineLimit: 0,
    // A lazy chunk (the toasts) is fetched by its own import() a moment after Vite's preload helper runs: the
    // helper's <link rel="modulepreload"> for that same chunk only races it, and the engine suite once saw that
    // link fail in Firefox with nothing else wrong (tests/engines). The chunk's dependencies are still preloaded.
    modulePreload: { resolveDependencies: (chunk, deps) => deps.filter((dep) => dep !== chunk) },
    rollupOptions: isSsrBuild
      ? { input: "./server/app.ts", output: { manualChunks: workerChunks({ "calendar-read": "app/events/server/read-worker.server.ts" }) } }
      : undefined,
  },
  // Operator-edited content (content/*.yaml and its photos) is validated and compiled into the
  // site; a problem in it fails the build.
  // The content editor at /admin (Sveltia CMS) ships with the client build.
  plugins: [siteContent(), contentEditor(), tailwindcss(), reactRouter(), precompress()],
}));

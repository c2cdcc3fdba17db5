import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { contentEditor } from "./app/content/editor-plugin.server";
import { siteContent } from "./app/content/plugin.server";
import { precompress } from "./scripts/precompress";
import { workerChunks } from "./scripts/worker-chunks";

export default defineConfig(({ isSsrBuild }) => ({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  // The server bundles the icons it draws: Node would otherwise load lucide-react's whole CommonJS
  // build (every icon) at each start, a quarter of a second of a start's CPU.
  ssr: { noExternal: ["lucide-react"] },
  build: {
    // Never a data: URL: the pages' CSP allows images from the site itself only (img-src 'self'), so the
    // cards' pin (app.css) is a hashed file like every other asset.
    assetsInlineLimit: 0,
    rollupOptions: isSsrBuild
      ? { input: "./server/app.ts", output: { manualChunks: workerChunks({ "calendar-read": "app/events/server/read-worker.server.ts" }) } }
      : undefined,
  },
  // Operator-edited content (content/*.yaml and its photos) is validated and compiled into the
  // site; a problem in it fails the build.
  // The content editor at /admin (Sveltia CMS) ships with the client build.
  plugins: [siteContent(), contentEditor(), tailwindcss(), reactRouter(), precompress()],
}));

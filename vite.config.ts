import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { assertValidContent } from "./app/content/validate";
import { precompress } from "./scripts/precompress";

// Operator-edited content is checked before anything is built or served.
function validateContent(): Plugin {
  return {
    name: "validate-content",
    buildStart() {
      assertValidContent();
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
  },
  plugins: [validateContent(), tailwindcss(), reactRouter(), precompress()],
}));

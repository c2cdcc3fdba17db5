// `npm run content:check`: validates content/*.yaml and its photos without building the site.
// Prints every problem (file, entry, field, line) and exits 1 if there is any.
import { fileURLToPath } from "node:url";
import { runnerImport } from "vite";

// Vite's module runner loads the TypeScript loader as the build does, without a build.
const { module: loader } = /** @type {{ module: typeof import("../app/content/load.server") }} */ (
  await runnerImport(fileURLToPath(new URL("../app/content/load.server.ts", import.meta.url)), { configFile: false, logLevel: "silent" })
);
const dir = process.argv[2] ?? fileURLToPath(new URL("../content", import.meta.url));
const { problems } = await loader.loadContent(dir);
if (problems.length === 0) {
  console.log(`${dir.replace(/\/+$/, "").split("/").pop()}/ is valid: the site will build with it.`);
} else {
  console.error(new loader.ContentError(problems).message);
  process.exitCode = 1;
}

// `npm run content:check`: validates content/*.yaml and its photos without building the site.
// Prints every problem (file, entry, field, line) and exits 1 if there is any. In GitHub Actions it
// also annotates each problem on its file and line, and writes them as a table to the run summary.
import { appendFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runnerImport } from "vite";

// Vite's module runner loads the TypeScript loader as the build does, without a build.
/** @param {string} file */
const load = async (file) =>
  (await runnerImport(fileURLToPath(new URL(file, import.meta.url)), { configFile: false, logLevel: "silent" })).module;
const loader = /** @type {typeof import("../app/content/load.server")} */ (await load("../app/content/load.server.ts"));

const dir = process.argv[2] ?? fileURLToPath(new URL("../content", import.meta.url));
const folder = dir.replace(/\/+$/, "").split("/").pop() ?? "content";
const { problems } = await loader.loadContent(dir);
if (problems.length === 0) {
  console.log(`${folder}/ is valid: the site will build with it.`);
} else {
  console.error(new loader.ContentError(problems).message);
  process.exitCode = 1;
}

if (process.env.GITHUB_ACTIONS === "true") {
  const report = /** @type {typeof import("../app/content/report.server")} */ (await load("../app/content/report.server.ts"));
  for (const line of report.githubAnnotations(problems)) console.log(line);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, report.stepSummary(problems, folder));
}

// @ts-check
/* global window, document -- inside addInitScript and evaluate, which run in the browser */
// Which content editor runs under the site's kind of policy? The measurement behind
// docs/decisions/content-editor.md, kept so it can be re-run:
//   node scripts/measure-editors.js [sveltia-version] [decap-version]
// Fetches Sveltia CMS and Decap CMS with `npm pack`, serves each from loopback under
// script-src 'self' plus its inline script's hash (no 'unsafe-eval'; Decap once more with it),
// loads it in Chromium, and prints: whether its first screen renders and how soon, the policy
// violations, page errors and off-machine requests, and the files and bytes it loaded.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { chromium } from "playwright";
import { CHROME_PATH, CHROMIUM_FLAGS } from "./chromium.js";

const work = mkdtempSync(path.join(tmpdir(), "measure-editors-"));

/** Downloads a package with npm and unpacks it; returns its folder. */
function unpack(/** @type {string} */ spec, /** @type {string} */ name) {
  const tarball =
    execFileSync("npm", ["pack", spec, "--pack-destination", work, "--silent"], { encoding: "utf8" }).trim().split("\n").pop() ?? "";
  mkdirSync(path.join(work, name));
  execFileSync("tar", ["xzf", path.join(work, tarball), "-C", path.join(work, name)]);
  return path.join(work, name, "package");
}

const packages = {
  sveltia: unpack(`@sveltia/cms@${process.argv[2] ?? "0.221.1"}`, "sveltia"),
  decap: unpack(`decap-cms@${process.argv[3] ?? "3.16.3"}`, "decap"),
};

/** @type {Array<{ name: string; head: string; body: string; config: "json" | "yaml"; unsafeEval?: boolean }>} */
const editors = [
  {
    name: "sveltia-npm",
    head: `<script type="module">import CMS from "/pkg/sveltia/npm/index.js";CMS.init();</script>`,
    body: "",
    config: "json",
  },
  { name: "sveltia-cdn", head: `<script src="/pkg/sveltia/dist/sveltia-cms.js"></script>`, body: "", config: "json" },
  // Decap mounts into <body>, so its script goes there.
  { name: "decap", head: "", body: `<script src="/pkg/decap/dist/decap-cms.js"></script>`, config: "yaml" },
  { name: "decap+unsafe-eval", head: "", body: `<script src="/pkg/decap/dist/decap-cms.js"></script>`, config: "yaml", unsafeEval: true },
];

// A test repository (in the browser's memory) with one list of six founders, each with a photo.
const founders = {
  name: "founders",
  label: "Founders",
  widget: "list",
  min: 6,
  max: 6,
  fields: [
    { name: "name", label: "Name", widget: "string" },
    { name: "photo", label: "Photo", widget: "image", required: false },
  ],
};
const config = {
  backend: { name: "test-repo" },
  media_folder: "content/images",
  public_folder: "images",
  collections: [
    {
      name: "content",
      label: "Content",
      files: [{ name: "founders", label: "Founders", file: "content/founders.yaml", fields: [founders] }],
    },
  ],
};
// YAML is a superset of JSON.
const configs = { json: ["application/json", JSON.stringify(config)], yaml: ["text/yaml", JSON.stringify(config)] };
const TYPES = { ".js": "text/javascript", ".woff2": "font/woff2", ".json": "application/json" };

/** @type {Map<string, Buffer>} */
const served = new Map();
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  const editor = editors.find((candidate) => url.pathname === `/${candidate.name}/`);
  if (editor) {
    const inline = /<script type="module">([\s\S]*?)<\/script>/.exec(editor.head)?.[1];
    const [type] = configs[editor.config];
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>editor</title><link rel="cms-config-url" type="${type}" href="/config.${editor.config}">${editor.head}</head><body>${editor.body}</body></html>`;
    const scripts = [
      "'self'",
      ...(inline ? [`'sha256-${createHash("sha256").update(inline).digest("base64")}'`] : []),
      ...(editor.unsafeEval ? ["'unsafe-eval'"] : []),
    ];
    res.writeHead(200, {
      "content-type": "text/html",
      "content-security-policy": `default-src 'self'; script-src ${scripts.join(" ")}; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'`,
    });
    return res.end(html);
  }
  const configFile = /^\/config\.(json|yaml)$/.exec(url.pathname)?.[1];
  if (configFile === "json" || configFile === "yaml") {
    const [type, body] = configs[configFile];
    res.writeHead(200, { "content-type": type });
    return res.end(body);
  }
  const [, root, pkg, ...rest] = url.pathname.split("/");
  if (root === "pkg" && (pkg === "sveltia" || pkg === "decap")) {
    const file = path.join(packages[pkg], ...rest);
    if (existsSync(file) && statSync(file).isFile()) {
      const bytes = readFileSync(file);
      served.set(url.pathname, bytes);
      res.writeHead(200, { "content-type": TYPES[/** @type {keyof typeof TYPES} */ (path.extname(file))] ?? "application/octet-stream" });
      return res.end(bytes);
    }
  }
  res.writeHead(404);
  res.end();
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
const address = server.address();
const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROMIUM_FLAGS });
const results = [];
for (const editor of editors) {
  served.clear();
  const context = await browser.newContext();
  /** @type {string[]} */
  const offsite = [];
  await context.route(
    (url) => !url.href.startsWith(base),
    (route) => {
      offsite.push(route.request().url());
      return route.abort();
    },
  );
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen = /** @type {string[]} */ ([]);
    Object.assign(window, { violations: seen });
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message.slice(0, 120)));
  const start = Date.now();
  await page.goto(`${base}/${editor.name}/`);
  const rendered = await page
    .getByRole("button")
    .first()
    .waitFor({ timeout: 20_000 })
    .then(() => true)
    .catch(() => false);
  const ms = Date.now() - start;
  // Late requests (fonts, update checks) have a moment to show.
  await page.waitForTimeout(1_500);
  const violations = /** @type {string[]} */ (
    await page.evaluate(() => /** @type {{ violations: string[] }} */ (/** @type {unknown} */ (window)).violations)
  );
  const bytes = [...served.values()];
  const brotli = bytes.map((b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length);
  results.push({
    editor: editor.name,
    rendered,
    firstButtonMs: rendered ? ms : null,
    files: bytes.length,
    kB: Math.round(bytes.reduce((sum, b) => sum + b.length, 0) / 1024),
    brotliKB: Math.round(brotli.reduce((sum, n) => sum + n, 0) / 1024),
    violations: [...new Set(violations)],
    pageErrors: errors.slice(0, 3),
    offsite: [...new Set(offsite)],
  });
  await context.close();
}
await browser.close();
server.close();
console.log(JSON.stringify(results, null, 2));

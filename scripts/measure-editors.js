/* global window, document -- inside page.evaluate and addInitScript, which run in the browser */
// A one-off measurement, kept so the choice in docs/decisions/content-editor.md can be re-run.
// Which content editor runs under the site's kind of policy? Fetches Sveltia CMS and Decap CMS with
// `npm pack`, serves each from loopback under script-src 'self' (no 'unsafe-eval'), loads it in Chromium
// and reports policy violations, whether its first screen renders and how soon, and the bytes it loads.
//   node scripts/measure-editors.js [sveltia-version] [decap-version]
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
const unpack = (spec, name) => {
  const tarball = execFileSync("npm", ["pack", spec, "--pack-destination", work, "--silent"], { encoding: "utf8" })
    .trim()
    .split("\n")
    .pop();
  mkdirSync(path.join(work, name));
  execFileSync("tar", ["xzf", path.join(work, tarball), "-C", path.join(work, name)]);
  return path.join(work, name, "package");
};
const SV = unpack(`@sveltia/cms@${process.argv[2] ?? "0.221.1"}`, "sveltia");
const DC = unpack(`decap-cms@${process.argv[3] ?? "3.16.3"}`, "decap");
const editors = {
  "sveltia-npm": { head: `<script type="module">import CMS from "/pkg/sveltia/npm/index.js"; CMS.init();</script>`, config: "json" },
  "sveltia-cdn": { head: `<script src="/pkg/sveltia/dist/sveltia-cms.js"></script>`, config: "json" },
  "sveltia-npm-fontcss": {
    head: `<script type="module">import CMS from "/pkg/sveltia/npm/index.js"; CMS.init();</script>`,
    config: "json",
    body: `<link rel="stylesheet" href="/fonts.css">`,
  },
  decap: { head: "", body: `<script src="/pkg/decap/dist/decap-cms.js"></script>`, config: "yaml" },
};
const config = {
  backend: { name: "test-repo" },
  media_folder: "content/images",
  public_folder: "images",
  collections: [
    {
      name: "content",
      label: "Content",
      files: [
        {
          name: "founders",
          label: "Founders",
          file: "content/founders.yaml",
          fields: [
            {
              name: "founders",
              label: "Founders",
              widget: "list",
              min: 6,
              max: 6,
              fields: [
                { name: "name", label: "Name", widget: "string" },
                { name: "photo", label: "Photo", widget: "image", required: false },
              ],
            },
          ],
        },
      ],
    },
  ],
};
const yaml = `backend:\n  name: test-repo\nmedia_folder: content/images\npublic_folder: images\ncollections:\n  - name: content\n    label: Content\n    files:\n      - name: founders\n        label: Founders\n        file: content/founders.yaml\n        fields:\n          - {name: founders, label: Founders, widget: list, min: 6, max: 6, fields: [{name: name, label: Name, widget: string}, {name: photo, label: Photo, widget: image, required: false}]}\n`;
const A = "/pkg/sveltia/npm/assets/";
const R = "U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F";
const fontsCss = `@font-face{font-family:'Source Sans 3';font-style:normal;font-display:swap;font-weight:200 900;src:url(${A}source-sans-3-latin-wght-normal-BqRLTx4X.woff2) format('woff2-variations');unicode-range:${R}, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD;size-adjust:110%}
@font-face{font-family:'Noto Mono';font-style:normal;font-display:swap;font-weight:400;src:url(${A}noto-mono-latin-400-normal-DiC8lJru.woff2) format('woff2')}
@font-face{font-family:'Material Symbols Outlined';font-style:normal;font-display:block;font-weight:400;src:url(${A}material-symbols-outlined-latin-wght-normal-_Z1IJPLg.woff2) format('woff2-variations');unicode-range:${R}, U+2074, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD}`;
const hash = (s) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
const served = new Map();
const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  const [, name, rest] = url.pathname.split("/");
  if (editors[name] && (rest === "" || rest === undefined)) {
    const ed = editors[name];
    const inline = /<script type="module">([\s\S]*?)<\/script>/.exec(ed.head)?.[1];
    const link =
      ed.config === "json"
        ? `<link rel="cms-config-url" type="application/json" href="/${name}/config.json">`
        : `<link rel="cms-config-url" type="text/yaml" href="/${name}/config.yml">`;
    const body = `<!doctype html><html><head><meta charset="utf-8"><title>x</title>${link}${ed.head}</head><body>${ed.body ?? ""}</body></html>`;
    const eval_ = url.searchParams.has("eval") ? " 'unsafe-eval'" : "";
    res.writeHead(200, {
      "content-type": "text/html",
      "content-security-policy": `default-src 'self'; script-src 'self'${inline ? " " + hash(inline) : ""}${eval_}; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'`,
    });
    return res.end(body);
  }
  if (name === "fonts.css") {
    res.writeHead(200, { "content-type": "text/css" });
    return res.end(fontsCss);
  }
  if (rest === "config.json") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(config));
  }
  if (rest === "config.yml") {
    res.writeHead(200, { "content-type": "text/yaml" });
    return res.end(yaml);
  }
  if (name === "pkg") {
    const parts = url.pathname.split("/").slice(2);
    const root = parts[0] === "sveltia" ? SV : DC;
    const file = path.join(root, ...parts.slice(1));
    if (existsSync(file) && statSync(file).isFile()) {
      const type = file.endsWith(".js")
        ? "text/javascript"
        : file.endsWith(".woff2")
          ? "font/woff2"
          : file.endsWith(".json")
            ? "application/json"
            : "application/octet-stream";
      const buf = readFileSync(file);
      served.set(url.pathname, buf);
      res.writeHead(200, { "content-type": type });
      return res.end(buf);
    }
  }
  res.writeHead(404);
  res.end();
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROMIUM_FLAGS });
const results = [];
for (const [name] of Object.entries(editors))
  for (const withEval of [false, true]) {
    if (withEval && name !== "decap") continue;
    served.clear();
    const context = await browser.newContext();
    const offsite = [];
    await context.route(
      (u) => !u.href.startsWith(base),
      (route) => {
        offsite.push(route.request().url());
        return route.abort();
      },
    );
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__v = [];
      document.addEventListener("securitypolicyviolation", (e) => window.__v.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message.slice(0, 120)));
    const start = Date.now();
    await page.goto(`${base}/${name}/${withEval ? "?eval" : ""}`);
    let rendered = false;
    try {
      await page.getByRole("button").first().waitFor({ timeout: 20000 });
      rendered = true;
    } catch {
      // Not rendered within 20 s: reported as such.
    }
    const fontState = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].map((f) => `${f.family}:${f.status}`);
    });
    const ms = Date.now() - start;
    await page.waitForTimeout(1500);
    const violations = await page.evaluate(() => window.__v);
    const buttons = rendered
      ? (await page.getByRole("button").allInnerTexts())
          .map((t) => t.trim())
          .filter(Boolean)
          .slice(0, 4)
      : [];
    let bytes = 0,
      br = 0;
    for (const buf of served.values()) {
      bytes += buf.length;
      br += brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length;
    }
    results.push({
      fontState,
      editor: name + (withEval ? " (+'unsafe-eval')" : ""),
      rendered,
      msToFirstButton: rendered ? ms : null,
      buttons,
      violations: [...new Set(violations)],
      pageErrors: errors.slice(0, 3),
      offsite: [...new Set(offsite)],
      files: served.size,
      kB: Math.round(bytes / 1024),
      brotliKB: Math.round(br / 1024),
    });
    await context.close();
  }
await browser.close();
server.close();
console.log(JSON.stringify(results, null, 1));

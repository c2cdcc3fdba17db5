// Ships the content editor (Sveltia CMS, its exact version pinned in package.json) with the client
// build: its npm build's files under /assets/sveltia-cms-<version>/, served from memory and
// immutable like every hashed asset (a new version is a new folder). No CDN at run time: the
// editor's stylesheet names its three web fonts on jsDelivr, so those addresses are pointed at the
// copies the package itself ships. The server reads where the entry is from `virtual:content-editor`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { buildHandOff } from "../../scripts/build-handoff";
import { buildPreview, siteStylesheet, type PreviewBuild } from "../preview/build.server";

export const EDITOR_MODULE = "virtual:content-editor";
const RESOLVED = `\0${EDITOR_MODULE}`;

const PACKAGE_DIR = fileURLToPath(new URL("../../node_modules/@sveltia/cms", import.meta.url));
/** The build meant for self-hosting (its own fonts, no update check against a CDN). */
const BUILD_DIR = path.join(PACKAGE_DIR, "npm");

/**
 * Not shipped: source maps, and the WebAssembly decoders for HEIC and WebP conversion, which the
 * /admin policy does not allow ('wasm-unsafe-eval'): the site takes every photo as it is uploaded,
 * HEIC included, and converts it at build (photo.server.ts). The editor then shows a HEIC as a file
 * icon in browsers that cannot draw it (tests/e2e/admin-heic.spec.ts).
 */
const LEFT_OUT = /\.(map|wasm)$/;

/** The font addresses the editor's stylesheet names, each with the file of the package that holds it. */
const CDN_FONTS: Array<[url: string, file: RegExp]> = [
  ["https://cdn.jsdelivr.net/fontsource/fonts/source-sans-3:vf@5.3.0/latin-wght-normal.woff2", /^source-sans-3-latin-wght-normal-[\w-]+\.woff2$/],
  ["https://cdn.jsdelivr.net/fontsource/fonts/noto-mono@5.3.0/latin-400-normal.woff2", /^noto-mono-latin-400-normal-[\w-]+\.woff2$/],
  [
    "https://cdn.jsdelivr.net/fontsource/fonts/material-symbols-outlined:vf@5.3.7/latin-wght-normal.woff2",
    /^material-symbols-outlined-latin-wght-normal-[\w-]+\.woff2$/,
  ],
];

/** The preview pane's files, from the client build to the server's. */
const previewFiles = buildHandOff<PreviewBuild>("content-preview");

export type EditorBuild = {
  version: string;
  /** URL path of the folder the files are served under, e.g. "/assets/sveltia-cms-0.221.1". */
  base: string;
  /** URL path of the module to import. */
  entry: string;
  /** Every file to ship, by its path under `base` ("index.js", "chunks/react-….js", "assets/….woff2"). */
  files: () => Map<string, Buffer>;
};

export function editorBuild(): EditorBuild {
  const { version } = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string };
  const base = `/assets/sveltia-cms-${version}`;
  return { version, base, entry: `${base}/index.js`, files: () => editorFiles(base) };
}

function editorFiles(base: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(BUILD_DIR, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || LEFT_OUT.test(entry.name)) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(BUILD_DIR, full).split(path.sep).join("/"), readFileSync(full));
  }
  const fonts = [...files.keys()].filter((file) => file.startsWith("assets/"));
  let index = files.get("index.js")?.toString("utf8");
  if (index === undefined) throw new Error(`the content editor's build has no index.js (${BUILD_DIR})`);
  for (const [url, file] of CDN_FONTS) {
    const local = fonts.find((name) => file.test(name.slice("assets/".length)));
    // A new version with other fonts must fail the build, not quietly load them from the CDN.
    if (!local || !index.includes(url)) throw new Error(`the content editor's stylesheet no longer names ${url}: update CDN_FONTS in ${fileURLToPath(import.meta.url)}`);
    index = index.replaceAll(url, `${base}/${local}`);
  }
  files.set("index.js", Buffer.from(index, "utf8"));
  return files;
}

/**
 * Emits the editor's files into the client build and builds its preview pane beside them, serves the
 * editor in development (with the editor's own preview), and names them to the server.
 */
export function contentEditor(): Plugin {
  const build = editorBuild();
  return {
    name: "content-editor",
    resolveId(id) {
      return id === EDITOR_MODULE ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      return [
        `export const version = ${JSON.stringify(build.version)};`,
        `export const entry = ${JSON.stringify(build.entry)};`,
        `export const preview = ${JSON.stringify(previewFiles.get()) ?? "undefined"};`,
      ].join("\n");
    },
    generateBundle() {
      // The client build only: the server build's output is not served.
      if (this.environment.name !== "client") return;
      for (const [file, source] of build.files()) this.emitFile({ type: "asset", fileName: `${build.base.slice(1)}/${file}`, source });
    },
    // Once the client's files are written, the stylesheet among them.
    async writeBundle(options, bundle) {
      if (this.environment.name !== "client" || !options.dir) return;
      previewFiles.set(await buildPreview({ root: this.environment.config.root, outDir: options.dir, stylesheet: siteStylesheet(bundle) }));
    },
    configureServer(server) {
      const files = build.files();
      server.middlewares.use(build.base, (req, res, next) => {
        const file = files.get((req.url ?? "").split("?")[0]!.replace(/^\//, ""));
        if (!file) return next();
        const type = req.url?.endsWith(".js") ? "text/javascript" : req.url?.endsWith(".woff2") ? "font/woff2" : "application/octet-stream";
        res.setHeader("Content-Type", type);
        res.end(file);
      });
    },
  };
}

// Builds the content editor's preview pane (register.ts) once the client is built: a Vite build of its
// own, into the client's folder, hashed like every asset (served immutable). Its own, so that the
// site's chunks stay as they are: in the client build, an entry sharing the pages' components would
// move them into chunks of their own, and every page would load more files. It carries its own copy
// of the site's React, which the editor's page only loads.
//
// Beside it, Immutable.js as a module of its own: the editor's npm build imports it by its bare name
// ("immutable") to hand templates their entry, and the editor's page maps that name to this file.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin, type Rollup } from "vite";
import { siteContent } from "../content/plugin.server";

const APP_DIR = fileURLToPath(new URL("..", import.meta.url));
const ENTRY = fileURLToPath(new URL("./register.ts", import.meta.url));
const STYLESHEET_MODULE = "virtual:site-stylesheet";
/** Where the pane's files go in the client build, URL path and folder alike. */
const FOLDER = "assets/content-preview";

export type PreviewBuild = {
  /** URL path of the pane's module, e.g. "/assets/content-preview/content-preview-B1x….js". */
  script: string;
  /** URL path of Immutable.js as a module. */
  immutable: string;
};

/** `virtual:site-stylesheet`: the URL of the stylesheet the client build made for the pages. */
function stylesheetModule(url: string): Plugin {
  const resolved = `\0${STYLESHEET_MODULE}`;
  return {
    name: "site-stylesheet",
    resolveId: (id) => (id === STYLESHEET_MODULE ? resolved : undefined),
    load: (id) => (id === resolved ? `export default ${JSON.stringify(url)};` : undefined),
  };
}

/** Builds the pane into `outDir` (the client build's folder); `stylesheet` is the pages' stylesheet's URL path. */
export async function buildPreview({
  root,
  outDir,
  stylesheet,
}: {
  root: string;
  outDir: string;
  stylesheet: string;
}): Promise<PreviewBuild> {
  const result = await build({
    configFile: false,
    root,
    mode: "production",
    logLevel: "warn",
    resolve: { alias: { "~": APP_DIR } },
    // The built content, photos and all, for the parts of a page the file being edited does not hold.
    plugins: [siteContent(), stylesheetModule(stylesheet)],
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      // The photos' renditions are the client build's own files (same bytes, same names), never inlined.
      assetsInlineLimit: 0,
      reportCompressedSize: false,
      rollupOptions: {
        // zod's sources carry comments Rollup cannot place ("annotation … position of the comment"): not ours to fix.
        onwarn(warning, warn) {
          if (warning.code !== "INVALID_ANNOTATION") warn(warning);
        },
        input: { "content-preview": ENTRY, immutable: "immutable" },
        // Both are imported by name: their exports stay.
        preserveEntrySignatures: "strict",
        output: {
          entryFileNames: `${FOLDER}/[name]-[hash].js`,
          chunkFileNames: `${FOLDER}/[name]-[hash].js`,
          assetFileNames: "assets/[name]-[hash][extname]",
        },
      },
    },
  });
  const chunks = (Array.isArray(result) ? result : [result as Rollup.RollupOutput]).flatMap((output) => output.output);
  const entry = (name: string) => {
    const chunk = chunks.find((file) => file.type === "chunk" && file.isEntry && file.name === name);
    if (!chunk) throw new Error(`the preview pane's build made no ${name} entry`);
    return `/${chunk.fileName}`;
  };
  return { script: entry("content-preview"), immutable: entry("immutable") };
}

/** The stylesheet the pages link (app/root.tsx imports app/app.css), among the client build's files. */
export function siteStylesheet(bundle: Rollup.OutputBundle): string {
  const source = path.join(APP_DIR, "app.css");
  const file = Object.values(bundle).find(
    (asset) => asset.type === "asset" && asset.originalFileNames.some((name) => path.resolve(name) === source),
  );
  if (!file) throw new Error("the client build has no stylesheet from app/app.css for the editor's preview pane");
  return `/${file.fileName}`;
}

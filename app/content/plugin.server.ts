// The Vite plugin that turns content/ into the module `virtual:site-content`: the validated data
// as plain objects, and each photo as AVIF and WebP renditions that Vite emits with content-hashed
// names under build/client/assets/ (served immutable). A problem in content/ fails the build with
// every problem listed (see load.server.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { renderSquare, type Rendition } from "./images.server";
import { ContentError, loadContent } from "./load.server";
import { PORTRAIT, portraitAlt } from "./portrait";
import { contentFiles, type RawContent } from "./schema";

export const CONTENT_MODULE = "virtual:site-content";
const RESOLVED = `\0${CONTENT_MODULE}`;

export type SiteContentOptions = {
  /** The content folder (content/ at the repository root). */
  dir: string;
  /** Where photo renditions are cached between builds. */
  cacheDir: string;
};

/** content/ at the repository root; renditions cached in node_modules/.cache (never committed). */
export const defaultContentOptions: SiteContentOptions = {
  dir: fileURLToPath(new URL("../../content", import.meta.url)),
  cacheDir: fileURLToPath(new URL("../../node_modules/.cache/site-content", import.meta.url)),
};

type Person = { name: string; photo?: string; photoAlt?: string };

/** JavaScript source for the content module; photo renditions become imports Vite emits as assets. */
export async function contentModuleSource(content: RawContent, { dir, cacheDir }: SiteContentOptions): Promise<string> {
  const imports: string[] = [];
  // Each asset URL is a placeholder in the JSON, replaced by its import's name below.
  const urlOf = (file: string) => {
    imports.push(`import img${imports.length} from ${JSON.stringify(`${file}?no-inline`)};`);
    return `__site_content_img_${imports.length - 1}__`;
  };
  const widths = PORTRAIT.densities.map((d) => d * PORTRAIT.size);

  const withPicture = async <T extends Person>({ photo, photoAlt, ...person }: T) => {
    if (!photo) return person;
    const renditions = await renderSquare(path.join(dir, photo), widths, cacheDir);
    const candidates = (format: Rendition["format"]) =>
      renditions.filter((r) => r.format === format).map((r) => ({ url: urlOf(r.file), width: r.width }));
    const avif = candidates("avif");
    const webp = candidates("webp");
    return {
      ...person,
      picture: {
        src: webp[0]!.url,
        width: PORTRAIT.size,
        height: PORTRAIT.size,
        alt: portraitAlt({ name: person.name, photoAlt }),
        sources: [
          { type: "image/avif", candidates: avif },
          { type: "image/webp", candidates: webp },
        ],
        source: photo,
      },
    };
  };

  const data: Record<string, unknown> = {
    ...content,
    founders: await Promise.all(content.founders.map(withPicture)),
    board: await Promise.all(content.board.map(withPicture)),
  };
  const exports = Object.entries(data).map(
    ([key, value]) => `export const ${key} = ${JSON.stringify(value, null, 2).replace(/"__site_content_img_(\d+)__"/g, "img$1")};`,
  );
  return [...imports, ...exports].join("\n");
}

export function siteContent(options: SiteContentOptions = defaultContentOptions): Plugin {
  const dir = path.resolve(options.dir);
  // Read and checked once per build (and again after an edit, in development): the module is made from the same read.
  let checked: ReturnType<typeof loadContent> | undefined;
  return {
    name: "site-content",
    // Checked first, so a content problem stops the build at once, reported as its list alone
    // (a stack trace would only bury it).
    async buildStart() {
      checked = loadContent(dir);
      const { problems } = await checked;
      if (problems.length === 0) return;
      const error = new ContentError(problems);
      error.stack = error.message;
      throw error;
    },
    resolveId(id) {
      return id === CONTENT_MODULE ? RESOLVED : undefined;
    },
    async load(id) {
      if (id !== RESOLVED) return undefined;
      for (const { file } of Object.values(contentFiles)) this.addWatchFile(path.join(dir, file));
      const { content, problems } = await (checked ??= loadContent(dir));
      if (!content) throw new ContentError(problems);
      for (const person of [...content.founders, ...content.board]) if (person.photo) this.addWatchFile(path.join(dir, person.photo));
      return contentModuleSource(content, { ...options, dir });
    },
    // In development an edit to content/ reloads the page with the new content.
    configureServer(server) {
      server.watcher.add(dir);
      server.watcher.on("all", (_event, file) => {
        if (!path.resolve(file).startsWith(dir + path.sep)) return;
        checked = undefined;
        for (const environment of Object.values(server.environments)) {
          const module = environment.moduleGraph.getModuleById(RESOLVED);
          if (module) environment.moduleGraph.invalidateModule(module);
        }
        server.ws.send({ type: "full-reload" });
      });
    },
  };
}

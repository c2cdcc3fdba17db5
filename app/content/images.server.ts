// Photos from any camera, made fit for the page at build time: turned upright (photo.server.ts),
// cropped square around the most interesting region, resized to the sizes the card shows (1x and
// 2x) and encoded as AVIF and WebP. Metadata (GPS position, camera serial) is dropped. Results
// are cached by the source's bytes, so a rebuild re-encodes only new or changed photos.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Sharp } from "sharp";
import { openPhoto } from "./photo.server";

export type Rendition = { format: "avif" | "webp"; width: number; height: number; file: string };

// Bump when the encoding settings change, so cached renditions are made again.
const SETTINGS = "v1 avif q50 e4, webp q78, attention crop";

const encode = {
  avif: (image: Sharp) => image.avif({ quality: 50, effort: 4 }),
  webp: (image: Sharp) => image.webp({ quality: 78 }),
};

/**
 * Square renditions of one photo at each width, AVIF and WebP, written under cacheDir with a name
 * that says what they are ("jane-doe-320w.avif"); Vite adds the content hash when it emits them.
 */
export async function renderSquare(source: string, widths: readonly number[], cacheDir: string): Promise<Rendition[]> {
  const bytes = readFileSync(source);
  const renditionsKey = createHash("sha256").update(SETTINGS).update(bytes).digest("hex").slice(0, 16);
  const base = path.parse(source).name.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "photo";
  const dir = path.join(cacheDir, renditionsKey);
  mkdirSync(dir, { recursive: true });

  // Opened once, and only when a rendition is missing: a HEIC takes about a second to decode.
  let photo: Promise<Sharp> | undefined;
  const jobs = widths.flatMap((width) =>
    (["avif", "webp"] as const).map(async (format): Promise<Rendition> => {
      const file = path.join(dir, `${base}-${width}w.${format}`);
      if (!existsSync(file)) {
        photo ??= openPhoto(bytes);
        const image = (await photo).clone().resize(width, width, { fit: "cover", position: "attention" });
        const output = await encode[format](image).toBuffer();
        // Written under a temporary name and renamed, so an interrupted build leaves no half file.
        const partial = `${file}.${process.pid}.partial`;
        writeFileSync(partial, output);
        renameSync(partial, file);
      }
      return { format, width, height: width, file };
    }),
  );
  return Promise.all(jobs);
}

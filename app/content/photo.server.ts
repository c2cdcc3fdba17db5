// A photo in any accepted format (photo-formats.ts), read as the build reads it. sharp reads JPEG,
// PNG and WebP itself and turns them upright by their EXIF orientation; HEIC and HEIF (HEVC, which
// sharp's libvips cannot decode) are decoded by libheif (heic.server.ts), upright by their own irot
// and imir boxes, and handed to sharp as pixels with no orientation left to apply.
import { createHash } from "node:crypto";
import sharp, { type Sharp } from "sharp";
import { decodeHeic } from "./heic.server";

const isHevc = async (bytes: Buffer) => (await sharp(bytes).metadata()).compression === "hevc";

/** A sharp pipeline of the photo, upright; clone it for each output. */
export async function openPhoto(bytes: Buffer): Promise<Sharp> {
  if (!(await isHevc(bytes))) return sharp(bytes, { failOn: "error" }).rotate();
  const { width, height, channels, data } = decodeHeic(bytes);
  return sharp(data, { raw: { width, height, channels } });
}

// A HEIC's check decodes it whole (about a second for an iPhone's 12 megapixels): a header libvips
// reads may still hold pixels libheif refuses. The verdicts are kept for the process, on globalThis:
// one `react-router build` loads vite.config.ts, and with it this module, six times over.
const VERDICTS = Symbol.for("site-content.heic-verdicts");
const heicVerdicts = ((globalThis as { [VERDICTS]?: Map<string, Promise<void>> })[VERDICTS] ??= new Map());

/** Throws unless the build can read the photo: the header of what sharp decodes, a HEIC whole. */
export async function checkPhoto(bytes: Buffer): Promise<void> {
  const meta = await sharp(bytes).metadata();
  if (!meta.width || !meta.height) throw new Error("has no width or height");
  if (meta.compression !== "hevc") return;
  const digest = createHash("sha256").update(bytes).digest("hex");
  let verdict = heicVerdicts.get(digest);
  if (!verdict) heicVerdicts.set(digest, (verdict = Promise.resolve().then(() => void decodeHeic(bytes))));
  await verdict;
}

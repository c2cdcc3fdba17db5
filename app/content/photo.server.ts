// A photo in any accepted format (photo-formats.ts), read as the build reads it. sharp reads JPEG,
// PNG and WebP itself and turns them upright by their EXIF orientation; HEIC and HEIF (HEVC, which
// sharp's libvips cannot decode) are decoded by libheif (heic.server.ts), upright by their own irot
// and imir boxes, and handed to sharp as pixels with no orientation left to apply.
import { createHash } from "node:crypto";
import sharp, { type Sharp } from "sharp";
import { decodeHeic } from "./heic.server";

const isHevc = async (bytes: Buffer) => (await sharp(bytes).metadata()).compression === "hevc";

// A HEIC is decoded whole (about a second for an iPhone's 12 megapixels) once per process: the check
// needs it (a header libvips reads may still hold pixels libheif refuses) and the renditions use the
// same pixels. Kept on globalThis: one `react-router build` loads vite.config.ts, and with it this
// module, six times over.
const DECODED = Symbol.for("site-content.heic-decoded");
const decoded = ((globalThis as { [DECODED]?: Map<string, Promise<ReturnType<typeof decodeHeic>>> })[DECODED] ??= new Map());

function decodeOnce(bytes: Buffer) {
  const bytesHash = createHash("sha256").update(bytes).digest("hex");
  let pixels = decoded.get(bytesHash);
  if (!pixels) decoded.set(bytesHash, (pixels = Promise.resolve().then(() => decodeHeic(bytes))));
  return pixels;
}

/** A sharp pipeline of the photo, upright; clone it for each output. */
export async function openPhoto(bytes: Buffer): Promise<Sharp> {
  if (!(await isHevc(bytes))) return sharp(bytes, { failOn: "error" }).rotate();
  const { width, height, channels, data } = await decodeOnce(bytes);
  return sharp(data, { raw: { width, height, channels } });
}

/** Throws unless the build can read the photo: the header of what sharp decodes, a HEIC whole. */
export async function checkPhoto(bytes: Buffer): Promise<void> {
  const meta = await sharp(bytes).metadata();
  if (!meta.width || !meta.height) throw new Error("has no width or height");
  if (meta.compression === "hevc") await decodeOnce(bytes);
}

// A throw-away copy of content/ for tests that edit it, and real camera-like JPEGs made with sharp.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";

/** A copy of the shipped content/ in a fresh temporary folder (named content/, as errors show it). */
export function copyOfContent(): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "site-content-")), "content");
  cpSync(path.resolve("content"), dir, { recursive: true });
  return dir;
}

/** Rewrites one file of a content folder; the edit must change it, so a stale test cannot pass. */
export function editFile(dir: string, file: string, edit: (text: string) => string): void {
  const full = path.join(dir, file);
  const before = readFileSync(full, "utf8");
  const after = edit(before);
  if (after === before) throw new Error(`the edit did not change ${file}`);
  writeFileSync(full, after);
}

/** Adds `photo: <photo>` to the first founder (after their name). */
export const giveFirstFounderPhoto = (dir: string, photo: string) =>
  editFile(dir, "founders.yaml", (text) => text.replace(/^( {2}- name: Maya Okafor\n)/m, `$1    photo: ${photo}\n`));

/**
 * A JPEG like a phone's: landscape pixels with an EXIF orientation saying "rotate 90°" (so it shows
 * portrait), a bright face-like disc off-centre, and some texture so it compresses like a photo.
 */
export async function cameraJpeg(file: string, { width = 2400, height = 1800, orientation = 6 } = {}): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#2b3a55"/><stop offset="1" stop-color="#c9a86a"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.62}" cy="${height * 0.45}" r="${Math.min(width, height) * 0.22}" fill="#f1d3b3"/>
  </svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 82 }).withMetadata({ orientation }).toFile(file);
}

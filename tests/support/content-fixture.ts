// A throw-away copy of content/ for tests that edit it, real camera-like JPEGs made with sharp, and
// a real iPhone-like HEIC.
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

/** Adds `photo: <photo>` to the founder of that name (after their name). */
export const giveFounderPhoto = (dir: string, name: string, photo: string) =>
  editFile(dir, "founders.yaml", (text) => text.replace(`  - name: ${name}\n`, `  - name: ${name}\n    photo: ${photo}\n`));

/** Adds `photo: <photo>` to the first founder, Maya Okafor. */
export const giveFirstFounderPhoto = (dir: string, photo: string) => giveFounderPhoto(dir, "Maya Okafor", photo);

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

/**
 * A real HEIC as an iPhone stores a portrait: landscape pixels (192x128), an irot box turning them
 * 90° clockwise, and EXIF orientation 6 saying the same. Shown upright it is 128x192, red above
 * blue, with a green square at the top left. Made by tests/fixtures/heic/make-fixture.c (726 bytes).
 */
export const PORTRAIT_HEIC = path.resolve("tests/fixtures/heic/portrait-irot.heic");

/** PORTRAIT_HEIC's pixels turned and mirrored (irot and imir; EXIF orientation 5): the green square shown at the top right. */
export const MIRRORED_HEIC = path.resolve("tests/fixtures/heic/portrait-irot-imir.heic");

/** PORTRAIT_HEIC's picture as a phone's JPEG: the same landscape pixels, EXIF orientation 6. */
export async function portraitJpeg(file: string): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="192" height="128">
    <rect width="96" height="128" fill="#e00000"/><rect x="96" width="96" height="128" fill="#0000e0"/>
    <rect y="104" width="24" height="24" fill="#00e000"/>
  </svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toFile(file);
}

/** The colour of raw pixels at (x, y): "red", "green", "blue", or its values when none of them. */
export function colourAt(data: Uint8Array, width: number, channels: number, x: number, y: number): string {
  const at = (y * width + x) * channels;
  const [r = 0, g = 0, b = 0] = data.subarray(at, at + 3);
  const strong = (v: number) => v > 180;
  const weak = (v: number) => v < 60;
  if (strong(r) && weak(g) && weak(b)) return "red";
  if (weak(r) && strong(g) && weak(b)) return "green";
  if (weak(r) && weak(g) && strong(b)) return "blue";
  return `rgb(${r}, ${g}, ${b})`;
}

// Emoji on the share cards: each one is drawn as its Twemoji picture (@twemoji/svg in
// node_modules, CC-BY 4.0), which satori places like a glyph of the text's size. Only the emoji a
// card holds are read, and the pictures read are kept in a bounded cache. Worker side: imports
// nothing of the app (see share-image-worker.server.ts).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { LRUCache } from "lru-cache";

const require = createRequire(import.meta.url);

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

const EMOJI_BY_DEFAULT = /\p{Emoji_Presentation}|\uFE0F|\u20E3|\p{Regional_Indicator}/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;

/**
 * A grapheme drawn as a picture: one shown as an emoji by default or asked to be (U+FE0F), a flag,
 * a keycap, or a pictograph past the letter-like symbols (©, ™ and arrows stay text, as the fonts
 * draw them); U+FE0E asks for text.
 */
function isEmoji(grapheme: string): boolean {
  if (grapheme.includes("\uFE0E")) return false;
  if (EMOJI_BY_DEFAULT.test(grapheme)) return true;
  return PICTOGRAPH.test(grapheme) && grapheme.codePointAt(0)! >= 0x2300;
}

/** Twemoji's file names: code points in hex joined by "-", without U+FE0F unless joined by U+200D. */
function fileNames(grapheme: string): string[] {
  const hex = (text: string) => [...text].map((c) => c.codePointAt(0)!.toString(16)).join("-");
  const bare = grapheme.replace(/\uFE0F/g, "");
  return [...new Set([grapheme.includes("\u200D") ? hex(grapheme) : hex(bare), hex(bare), hex(grapheme)])];
}

const pictures = new LRUCache<string, string>({ maxSize: 2 * 1024 * 1024, sizeCalculation: (uri) => uri.length });
const missing = new LRUCache<string, true>({ max: 1000 });

function pictureOf(grapheme: string): string | undefined {
  const cached = pictures.get(grapheme);
  if (cached || missing.has(grapheme)) return cached;
  for (const name of fileNames(grapheme)) {
    try {
      const svg = readFileSync(require.resolve(`@twemoji/svg/${name}.svg`));
      const uri = `data:image/svg+xml;base64,${svg.toString("base64")}`;
      pictures.set(grapheme, uri);
      return uri;
    } catch {
      // Not this spelling of the sequence; try the next.
    }
  }
  missing.set(grapheme, true);
  return undefined;
}

/** The pictures of the emoji in `text`, by grapheme (satori's graphemeImages). */
export function emojiImages(text: string): Record<string, string> {
  const images: Record<string, string> = {};
  for (const { segment } of graphemes.segment(text)) {
    if (segment in images || !isEmoji(segment)) continue;
    const picture = pictureOf(segment);
    if (picture) images[segment] = picture;
  }
  return images;
}

/** The text without the emoji drawn as pictures (what the fonts must cover). */
export function withoutEmoji(text: string, images: Record<string, string>): string {
  let out = "";
  for (const { segment } of graphemes.segment(text)) if (!(segment in images)) out += segment;
  return out;
}

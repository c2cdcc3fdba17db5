// The fonts of the share cards, from the @fontsource packages in node_modules (OFL; never a
// download). Each package splits its font into files by unicode range (Latin, Greek, Hebrew,
// a hundred slices of Chinese…); a card loads only the files its own text needs, so a Latin card
// reads four small files and a Japanese one the few slices its characters are in. Files are kept
// in a least-recently-used cache of bounded size, so memory stays bounded whatever the calendar
// holds. Worker side: imports nothing of the app (see share-image-worker.server.ts).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { LRUCache } from "lru-cache";
import type { Font } from "satori";

const require = createRequire(import.meta.url);

/** How text is set on the card: the title in the serif, the rest in the sans at two weights. */
export type TextRole = "serif" | "text" | "strong";

type Family = {
  /** The npm package and the prefix of its file names. */
  pkg: string;
  prefix: string;
  /** Static weights shipped as files, or one variable file per subset. */
  weights: readonly number[] | "variable";
};

const SERIF: Family = { pkg: "@fontsource/source-serif-4", prefix: "source-serif-4", weights: [600] };
const SANS: Family = { pkg: "@fontsource/inter", prefix: "inter", weights: [500, 700] };
const ROLES: Record<TextRole, { family: Family; weight: number }> = {
  serif: { family: SERIF, weight: 600 },
  text: { family: SANS, weight: 500 },
  strong: { family: SANS, weight: 700 },
};

// The scripts the card's own fonts lack, each from its Noto family. Chinese, Japanese and Korean
// come as variable fonts: their static packages weigh 70 MB each.
const HEBREW: Family = { pkg: "@fontsource/noto-sans-hebrew", prefix: "noto-sans-hebrew", weights: [500, 600, 700] };
const ARABIC: Family = { pkg: "@fontsource/noto-sans-arabic", prefix: "noto-sans-arabic", weights: [500, 600, 700] };
const DEVANAGARI: Family = { pkg: "@fontsource/noto-sans-devanagari", prefix: "noto-sans-devanagari", weights: [500, 600, 700] };
const CHINESE: Family = { pkg: "@fontsource-variable/noto-sans-sc", prefix: "noto-sans-sc", weights: "variable" };
const JAPANESE: Family = { pkg: "@fontsource-variable/noto-sans-jp", prefix: "noto-sans-jp", weights: "variable" };
const KOREAN: Family = { pkg: "@fontsource-variable/noto-sans-kr", prefix: "noto-sans-kr", weights: "variable" };

const KANA = /[\p{scx=Hiragana}\p{scx=Katakana}]/u;
const HANGUL = /\p{scx=Hangul}/u;

/**
 * The fallbacks in the order they are tried. A Han character is Chinese, Japanese or Korean
 * depending on the text around it: kana make it Japanese, Hangul Korean, otherwise Chinese.
 */
function fallbacksFor(text: string): Family[] {
  const cjk = KANA.test(text) ? [JAPANESE, CHINESE, KOREAN] : HANGUL.test(text) ? [KOREAN, JAPANESE, CHINESE] : [CHINESE, JAPANESE, KOREAN];
  return [SANS, HEBREW, ARABIC, DEVANAGARI, ...cjk];
}

type Subset = { name: string; ranges: [number, number][] };

/** "U+0590-05FF,U+20AA" (a CSS unicode-range) as code point pairs. */
export function parseUnicodeRange(value: string): [number, number][] {
  return value.split(",").flatMap((part): [number, number][] => {
    const match = /^\s*U\+([0-9a-f?]+)(?:-([0-9a-f]+))?\s*$/i.exec(part);
    if (!match) return [];
    const [, from = "", to] = match;
    if (from.includes("?")) return [[Number.parseInt(from.replace(/\?/g, "0"), 16), Number.parseInt(from.replace(/\?/g, "f"), 16)]];
    return [[Number.parseInt(from, 16), Number.parseInt(to ?? from, 16)]];
  });
}

const subsetsOf = new Map<Family, Subset[]>();

/** A family's subsets, as its package's unicode.json lists them (read once). */
function subsets(family: Family): Subset[] {
  let list = subsetsOf.get(family);
  if (!list) {
    const table = require(`${family.pkg}/unicode.json`) as Record<string, string>;
    list = Object.entries(table).map(([name, ranges]) => ({ name: name.replace(/^\[(\d+)\]$/, "$1"), ranges: parseUnicodeRange(ranges) }));
    subsetsOf.set(family, list);
  }
  return list;
}

function covers(subset: Subset, codePoint: number): boolean {
  return subset.ranges.some(([from, to]) => codePoint >= from && codePoint <= to);
}

/** The shipped weight closest to the one asked for (variable fonts have one file). */
function nearestWeight(family: Family, weight: number): number | "wght" {
  if (family.weights === "variable") return "wght";
  return family.weights.reduce((best, w) => (Math.abs(w - weight) < Math.abs(best - weight) ? w : best));
}

/** One file of one family: a satori font of its own name, so no two files share a name. */
type Face = { key: string; file: string; weight: number };

function faceOf(family: Family, subset: Subset, weight: number): Face {
  const shipped = nearestWeight(family, weight);
  const file = `${family.prefix}-${subset.name}-${shipped}-normal.woff2`;
  // A variable font is drawn at its default instance: it is registered at the weight asked for,
  // and satori thickens it for bold text as browsers do.
  return { key: file.replace(/\.woff2$/, ""), file: `${family.pkg}/files/${file}`, weight: shipped === "wght" ? weight : shipped };
}

/** Characters that need no glyph: controls, spaces, joiners, variation selectors, direction marks. */
const NO_GLYPH = /[\p{Cc}\p{Cf}\p{Zs}\p{Mn}\uFE00-\uFE0F]/u;

export type TextRun = { text: string; role: TextRole };

/**
 * The files a card's text needs, per role in the order satori should try them: the role's own
 * family first, then each fallback that has a character the ones before lack.
 */
export function facesFor(runs: TextRun[]): Record<TextRole, Face[]> {
  const all = runs.map((run) => run.text).join(" ");
  const fallbacks = fallbacksFor(all);
  const chosen: Record<TextRole, Map<string, Face>> = { serif: new Map(), text: new Map(), strong: new Map() };
  // The role's first file always: satori measures with it even where no character needs it.
  for (const role of Object.keys(ROLES) as TextRole[]) {
    const { family, weight } = ROLES[role];
    const first = faceOf(family, subsets(family).find((s) => s.name === "latin") ?? subsets(family)[0]!, weight);
    chosen[role].set(first.key, first);
  }
  for (const { text, role } of runs) {
    const { family: own, weight } = ROLES[role];
    for (const char of new Set(text)) {
      if (NO_GLYPH.test(char)) continue;
      const codePoint = char.codePointAt(0)!;
      for (const family of [own, ...fallbacks]) {
        const subset = subsets(family).find((s) => covers(s, codePoint));
        if (!subset) continue;
        const face = faceOf(family, subset, weight);
        chosen[role].set(face.key, face);
        break;
      }
    }
  }
  return { serif: [...chosen.serif.values()], text: [...chosen.text.values()], strong: [...chosen.strong.values()] };
}

/** Font files read so far, least recently used dropped past the budget. */
export const FONT_CACHE_BYTES = 24 * 1024 * 1024;
const files = new LRUCache<string, Buffer>({ maxSize: FONT_CACHE_BYTES, sizeCalculation: (data) => data.length });

function fontFile(file: string): Buffer {
  let data = files.get(file);
  if (!data) {
    data = readFileSync(require.resolve(file));
    files.set(file, data);
  }
  return data;
}

// satori keeps its parsed fonts per fonts array: the same set of files gets the same array.
const fontSets = new LRUCache<string, Font[]>({ max: 8 });

/** The satori fonts for a card's faces, each under its own name, and the family list of each role. */
export function loadFaces(faces: Record<TextRole, Face[]>): { fonts: Font[]; families: Record<TextRole, string> } {
  const unique = new Map<string, Face>();
  for (const face of [...faces.serif, ...faces.text, ...faces.strong]) unique.set(`${face.key}@${face.weight}`, face);
  const key = [...unique.keys()].sort().join(",");
  let fonts = fontSets.get(key);
  if (!fonts) {
    fonts = [...unique.entries()].map(([name, face]): Font => ({
      name,
      data: fontFile(face.file),
      weight: face.weight as Font["weight"],
      style: "normal",
    }));
    fontSets.set(key, fonts);
  }
  const list = (role: TextRole) => faces[role].map((face) => `${face.key}@${face.weight}`).join(", ");
  return { fonts, families: { serif: list("serif"), text: list("text"), strong: list("strong") } };
}

/** How many bytes of font files are held now (for tests of the bound). */
export function fontCacheBytes(): number {
  return files.calculatedSize;
}

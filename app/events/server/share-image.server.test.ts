import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "~/events/model";
import { shareCardOf } from "./share-card.server";
import { facesFor } from "./share-fonts.server";
import { drawShareCard, SHARE_IMAGE } from "./share-image.server";

const site = { name: "Founders Circle", shortName: "FC", host: "founders.example.org" };
const at = { start: { dateTime: "2026-12-10T18:30:00-05:00" } };
const draw = (event: Omit<CalendarEvent, "id">) => drawShareCard(shareCardOf({ id: "x", ...event }, site));
// Cards drawn on this thread, each script's fonts read on first use, some scanned pixel by pixel: a
// second or two on a quiet machine.
const DRAWING_MS = 60_000;

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

type Pixels = { data: Buffer; width: number; height: number };

async function pixels(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The card's background (INK, #14213d), give or take anti-aliasing. */
function isBackground({ data, width }: Pixels, x: number, y: number): boolean {
  const i = (y * width + x) * 3;
  return Math.abs(data[i]! - 0x14) + Math.abs(data[i + 1]! - 0x21) + Math.abs(data[i + 2]! - 0x3d) < 24;
}

function clear(image: Pixels, xs: [number, number], ys: [number, number]): boolean {
  for (let y = ys[0]; y < ys[1]; y++) for (let x = xs[0]; x < xs[1]; x++) if (!isBackground(image, x, y)) return false;
  return true;
}

/** The row of the brass rule above the date: the first row mostly not background. */
function ruleRow(image: Pixels): number {
  for (let y = 200; y < image.height; y++) {
    let ink = 0;
    for (let x = 72; x < 1128; x++) if (!isBackground(image, x, y)) ink++;
    if (ink > 1000) return y;
  }
  throw new Error("no rule found");
}

/** The left edge of the right-hand text (the site's address) in the bottom line. */
function addressLeft(image: Pixels, ys: [number, number]): number {
  let x = 1127;
  while (x > 600 && !clear(image, [x - 24, x], ys)) x -= 1;
  return x;
}

describe("drawShareCard", () => {
  it(
    "draws a 1200×630 PNG per card, the same for the same card and different for another",
    async () => {
      const dinner = { summary: "Member Core Group Dinner", location: "Midtown Manhattan", ...at };
      const first = await draw(dinner);
      expect(pngSize(first.png)).toEqual(SHARE_IMAGE);
      expect((await draw(dinner)).png.equals(first.png)).toBe(true);
      expect((await draw({ ...dinner, summary: "Speaker Series Evening" })).png.equals(first.png)).toBe(false);
      expect(pngSize((await draw({})).png)).toEqual(SHARE_IMAGE);
    },
    DRAWING_MS,
  );

  const scripts: [string, string, string][] = [
    ["Latin with accents", "Zoë & Łukasz: Café Crème, Ñandú Soirée", "Kraków, Łódź & São Paulo"],
    ["Greek", "Συνάντηση ιδρυτών στην Αθήνα", "Αθήνα"],
    ["Cyrillic", "Встреча основателей в Москве", "Москва"],
    ["Hebrew", "שלום — מפגש מייסדים בתל אביב", "תל אביב"],
    ["Arabic", "لقاء المؤسسين في دبي", "دبي، الإمارات"],
    ["Devanagari", "संस्थापकों की बैठक मुंबई में", "मुंबई"],
    ["Chinese", "创始人聚会：上海站", "上海市浦东新区"],
    ["Japanese", "創業者ミートアップ東京", "東京都渋谷区"],
    ["Korean", "창업자 모임 서울", "서울특별시 강남구"],
    ["emoji", "Launch Party 🚀🎉 👩🏽‍💻 🇺🇸 ❤️ 1️⃣", "Rooftop 🌃"],
  ];
  for (const [script, summary, location] of scripts) {
    it(
      `draws ${script} with real glyphs: no character without a font`,
      async () => {
        const { png, missing } = await draw({ summary, location, ...at });
        expect(missing).toEqual([]);
        expect(pngSize(png)).toEqual(SHARE_IMAGE);
      },
      DRAWING_MS,
    );
  }

  it(
    "says which characters no font draws (Cherokee, Linear B), so the check above can fail",
    async () => {
      const { missing } = await draw({ summary: "ᏣᎳᎩ 𐀀𐀁", ...at });
      expect(missing.join("")).toContain("Ꮳ");
      expect(missing.join("")).toContain("𐀀");
    },
    DRAWING_MS,
  );

  it(
    "clamps a long title to its lines, breaks a word longer than a line, and keeps clear of the edges and the rule",
    async () => {
      const words =
        "A very long founders' evening about hiring, pricing, fundraising, burnout, boards, investors, customers, " +
        "cofounders, first sales hires, pricing again, and what nobody tells you about the second year";
      const long = await draw({ summary: words, ...at });
      // Past three lines, more words change nothing: the title is clamped.
      expect((await draw({ summary: `${words} of a company and the third`, ...at })).png.equals(long.png)).toBe(true);
      for (const summary of [words, `Founders${"X".repeat(90)}`, `#${"founders".repeat(12)}`, "https://example.org/" + "a".repeat(100)]) {
        const image = await pixels((await draw({ summary, ...at })).png);
        const rule = ruleRow(image);
        expect(rule, summary).toBeGreaterThan(420);
        // Nothing in the margins (the title is not cut at the card's edge) nor just above the rule.
        expect(clear(image, [0, 70], [0, 630]), summary).toBe(true);
        expect(clear(image, [1130, 1200], [0, 630]), summary).toBe(true);
        expect(clear(image, [72, 1128], [rule - 14, rule - 1]), summary).toBe(true);
      }
    },
    DRAWING_MS,
  );

  it(
    "ends a long place with an ellipsis before the site's address instead of drawing over it",
    async () => {
      const short = await pixels((await draw({ summary: "Dinner", location: "NYC", ...at })).png);
      const band: [number, number] = [ruleRow(short) + 80, 620];
      const left = addressLeft(short, band);
      for (const location of [
        "Room_" + "ABCDEFGHIJ".repeat(7),
        "Private dining room, Midtown Manhattan, 2 West 44th Street, New York, NY 10036, USA",
      ]) {
        const image = await pixels((await draw({ summary: "Dinner", location, ...at })).png);
        expect(addressLeft(image, band)).toBe(left);
        // A gap of background between the place and the address.
        expect(clear(image, [left - 24, left - 1], band), location).toBe(true);
      }
    },
    DRAWING_MS,
  );
});

describe("facesFor", () => {
  const files = (text: string) =>
    Object.values(facesFor([{ text, role: "serif" }]))
      .flat()
      .map((face) => face.file);

  it("reads only the Latin files for a Latin card", () => {
    expect(files("Member Core Group Dinner").every((file) => /@fontsource\/(source-serif-4|inter)\//.test(file))).toBe(true);
  });

  it("adds the one family a script needs, and only the slices of Chinese, Japanese or Korean its characters are in", () => {
    expect(files("שלום").some((file) => file.includes("noto-sans-hebrew-hebrew-600"))).toBe(true);
    const japanese = files("創業者ミートアップ東京").filter((file) => file.includes("noto-sans-jp"));
    expect(japanese.length).toBeGreaterThan(0);
    expect(japanese.length).toBeLessThan(8);
    expect(files("创始人聚会").some((file) => file.includes("noto-sans-sc"))).toBe(true);
    expect(files("창업자").some((file) => file.includes("noto-sans-kr"))).toBe(true);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { colourAt, MIRRORED_HEIC, PORTRAIT_HEIC } from "../../tests/support/content-fixture";
import { decodeHeic } from "./heic.server";

describe("decodeHeic", () => {
  it("decodes a HEIC upright by its irot box, without applying its EXIF orientation again", () => {
    // Stored 192x128 with irot and EXIF orientation 6: shown 128x192, green square at the top left.
    const { width, height, channels, data } = decodeHeic(readFileSync(PORTRAIT_HEIC));
    // 192x128 would be irot ignored, or irot and EXIF orientation both applied (turned 180°).
    expect([width, height, channels]).toEqual([128, 192, 3]);
    expect(data.length).toBe(128 * 192 * 3);
    const at = (x: number, y: number) => colourAt(data, width, channels, x, y);
    expect([at(8, 8), at(64, 8), at(120, 40), at(64, 90)]).toEqual(["green", "red", "red", "red"]);
    expect([at(8, 110), at(64, 150), at(120, 185)]).toEqual(["blue", "blue", "blue"]);
  });

  it("applies a mirroring (imir) after the rotation, as EXIF orientation 5 would", () => {
    const { width, height, channels, data } = decodeHeic(readFileSync(MIRRORED_HEIC));
    expect([width, height, channels]).toEqual([128, 192, 3]);
    const at = (x: number, y: number) => colourAt(data, width, channels, x, y);
    // The green square moves from the top left (turned only) to the top right (turned and mirrored).
    expect([at(8, 8), at(120, 8), at(64, 90), at(8, 185), at(120, 185)]).toEqual(["red", "green", "red", "blue", "blue"]);
  });

  it("refuses a file that is not a HEIF image", () => {
    expect(() => decodeHeic(Buffer.from("this is text, not a photo"))).toThrow(/^not a HEIF file: /);
  });
});

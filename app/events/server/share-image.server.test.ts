import { describe, expect, it } from "vitest";
import { renderShareImage, SHARE_IMAGE } from "./share-image.server";

const site = { name: "Founders Circle", shortName: "FC", host: "founders.example.org" };

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe("renderShareImage", () => {
  it("draws a 1200×630 PNG per event, different for different events, the same for the same one", async () => {
    const dinner = {
      id: "a",
      summary: "Member Core Group Dinner",
      start: { dateTime: "2026-12-10T18:30:00-05:00" },
      location: "Midtown Manhattan",
    };
    const first = await renderShareImage(dinner, site);
    expect(pngSize(first)).toEqual(SHARE_IMAGE);
    expect((await renderShareImage(dinner, site)).equals(first)).toBe(true);
    const other = await renderShareImage({ ...dinner, summary: "Speaker Series Evening" }, site);
    expect(other.equals(first)).toBe(false);
  }, 30_000);

  it("draws an untitled, undated event and a very long non-English title without failing", async () => {
    expect(pngSize(await renderShareImage({ id: "b" }, site))).toEqual(SHARE_IMAGE);
    const long = {
      id: "c",
      summary: `Zoë & Łukasz – ${"a long founders' evening ".repeat(12)}`,
      start: { date: "2026-05-17" },
      end: { date: "2026-05-20" },
    };
    expect(pngSize(await renderShareImage(long, site))).toEqual(SHARE_IMAGE);
  }, 30_000);
});

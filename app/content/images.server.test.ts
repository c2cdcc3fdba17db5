import { copyFileSync, mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cameraJpeg, colourAt, PORTRAIT_HEIC, portraitJpeg } from "../../tests/support/content-fixture";
import { renderSquare } from "./images.server";

const temp = () => mkdtempSync(path.join(tmpdir(), "renditions-"));

describe("renderSquare", () => {
  it("makes AVIF and WebP squares at each width from a large, rotated camera JPEG, without its metadata", async () => {
    const dir = temp();
    const source = path.join(dir, "Jane Doe.JPG");
    await cameraJpeg(source, { width: 3000, height: 2000, orientation: 6 });
    const renditions = await renderSquare(source, [160, 320], path.join(dir, "cache"));
    expect(renditions.map((r) => [r.format, r.width, r.height, path.basename(r.file)]).sort()).toEqual([
      ["avif", 160, 160, "jane-doe-160w.avif"],
      ["avif", 320, 320, "jane-doe-320w.avif"],
      ["webp", 160, 160, "jane-doe-160w.webp"],
      ["webp", 320, 320, "jane-doe-320w.webp"],
    ]);
    for (const r of renditions) {
      const meta = await sharp(r.file).metadata();
      expect(meta.format).toBe(r.format === "avif" ? "heif" : "webp");
      expect(meta.compression ?? "webp").toBe(r.format === "avif" ? "av1" : "webp");
      expect([meta.width, meta.height]).toEqual([r.width, r.height]);
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      // Small enough for a card: a few kilobytes, not a camera's megabytes.
      expect(statSync(r.file).size).toBeLessThan(30_000);
    }
  });

  it("makes the same renditions of an iPhone's HEIC as of a JPEG of the same picture, upright", async () => {
    const dir = temp();
    const heic = path.join(dir, "IMG_2041.HEIC");
    copyFileSync(PORTRAIT_HEIC, heic);
    const jpeg = path.join(dir, "IMG_2041.jpg");
    await portraitJpeg(jpeg);
    const shape = async (source: string) => {
      const renditions = await renderSquare(source, [160, 320], path.join(dir, "cache"));
      return Promise.all(
        renditions.map(async (r) => {
          const { data, info } = await sharp(r.file).raw().toBuffer({ resolveWithObject: true });
          const meta = await sharp(r.file).metadata();
          const at = (x: number, y: number) => colourAt(data, info.width, info.channels, Math.round(x * info.width), Math.round(y * info.height));
          // Cropped square from the 128x192 portrait: red above blue, whatever the crop's height.
          const colours = [at(0.5, 0.02), at(0.9, 0.2), at(0.5, 0.98), at(0.1, 0.9)];
          return [path.basename(r.file), meta.format, meta.compression, info.width, info.height, info.channels, meta.orientation, colours];
        }),
      );
    };
    const fromHeic = await shape(heic);
    expect(fromHeic.map(([file, , , width]) => [file, width]).sort()).toEqual([
      ["img-2041-160w.avif", 160],
      ["img-2041-160w.webp", 160],
      ["img-2041-320w.avif", 320],
      ["img-2041-320w.webp", 320],
    ]);
    for (const [, , , width, height, channels, orientation, colours] of fromHeic) {
      expect([height, channels, orientation]).toEqual([width, 3, undefined]);
      expect(colours).toEqual(["red", "red", "blue", "blue"]);
    }
    expect(fromHeic).toEqual(await shape(jpeg));
    // A photo is read by what it is, not by its name: a HEIC a transfer app renamed .jpg is still one.
    const renamed = path.join(dir, "renamed", "IMG_2041.jpg");
    mkdirSync(path.dirname(renamed));
    copyFileSync(PORTRAIT_HEIC, renamed);
    expect(await shape(renamed)).toEqual(fromHeic);
  });

  it("reuses renditions of an unchanged photo and remakes them when it changes", async () => {
    const dir = temp();
    const source = path.join(dir, "p.jpg");
    const cache = path.join(dir, "cache");
    await cameraJpeg(source, { width: 400, height: 300 });
    const [first] = await renderSquare(source, [160], cache);
    const made = statSync(first!.file).mtimeMs;
    const [again] = await renderSquare(source, [160], cache);
    expect(again!.file).toBe(first!.file);
    expect(statSync(again!.file).mtimeMs).toBe(made);
    await cameraJpeg(source, { width: 500, height: 300 });
    const [changed] = await renderSquare(source, [160], cache);
    expect(changed!.file).not.toBe(first!.file);
  });
});

import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cameraJpeg } from "../../tests/support/content-fixture";
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

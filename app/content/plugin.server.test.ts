import path from "node:path";
import { describe, expect, it } from "vitest";
import { cameraJpeg, copyOfContent, giveFirstFounderPhoto } from "../../tests/support/content-fixture";
import { loadValidContent } from "./load.server";
import { contentModuleSource } from "./plugin.server";

describe("contentModuleSource", () => {
  it("turns a photo into AVIF and WebP imports that Vite emits as hashed files, never inlined", async () => {
    const dir = copyOfContent();
    await cameraJpeg(path.join(dir, "images", "maya.jpg"), { width: 800, height: 600 });
    giveFirstFounderPhoto(dir, "images/maya.jpg");
    const source = await contentModuleSource(await loadValidContent(dir), { dir, cacheDir: path.join(dir, "..", "cache") });
    const imports = [...source.matchAll(/^import (img\d+) from "([^"]+)";$/gm)];
    expect(imports.map((m) => path.basename(m[2]!)).sort()).toEqual([
      "maya-160w.avif?no-inline",
      "maya-160w.webp?no-inline",
      "maya-320w.avif?no-inline",
      "maya-320w.webp?no-inline",
    ]);
    // The picture refers to the imports by name; the default alt text names the person.
    expect(source).toMatch(/"picture": \{\s*"src": img\d+,\s*"width": 160,\s*"height": 160,\s*"alt": "Portrait of Maya Okafor"/);
    expect(source).toMatch(/"type": "image\/avif",\s*"candidates": \[\s*\{\s*"url": img\d+,\s*"width": 160\s*\},\s*\{\s*"url": img\d+,\s*"width": 320/);
    expect(source).not.toContain("__site_content_img_");
    expect(source).not.toContain('"photo"');
  });

  it("leaves people without a photo with none (the card shows their monogram)", async () => {
    const dir = copyOfContent();
    const source = await contentModuleSource(await loadValidContent(dir), { dir, cacheDir: path.join(dir, "..", "cache") });
    expect(source).not.toMatch(/^import /m);
    expect(source).not.toContain('"picture"');
  });
});

// The operator's path on a fresh checkout: edit content/*.yaml (and add a photo), run
// `npm run build`, and the site shows it; a mistake fails the build and says where.
// The tests build one copy of this checkout (its tracked and new files, not build/ or
// node_modules/, which is linked), so the real build/ is never touched: the mistake first (its
// build stops as it starts, naming it), then, the mistake undone, the edits that build.
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshCheckout } from "../support/checkout";
import sharp from "sharp";
import { cameraJpeg, colourAt, editFile, giveFounderPhoto, PORTRAIT_HEIC } from "../support/content-fixture";
import { startServer, type RunningServer } from "../support/start-server";

// A full build of the edited checkout, its photos encoded: about 25 s on a quiet machine.
const BUILD_TIMEOUT = 180_000;

function run(cwd: string, script: string) {
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  return spawnSync("npm", ["run", script], { cwd, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });
}

let root: string;
const servers: RunningServer[] = [];
beforeAll(() => {
  root = freshCheckout();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("content on a fresh checkout", () => {
  // A build the mistake does not stop runs whole: it then fails on its status.
  it(
    "a founder without a name fails the build and content:check, naming the file, the entry and the field",
    { timeout: BUILD_TIMEOUT },
    () => {
      const founders = path.join(root, "content", "founders.yaml");
      const shipped = readFileSync(founders);
      editFile(path.join(root, "content"), "founders.yaml", (t) => t.replace("  - name: Priya Nair\n    title:", "  - title:"));
      const expected = /content\/founders\.yaml: founders\[2\]\.name: required \(line \d+\)/;
      try {
        const build = run(root, "build");
        expect(build.status).not.toBe(0);
        expect(build.stdout + build.stderr).toMatch(expected);

        const check = run(root, "content:check");
        expect(check.status).toBe(1);
        expect(check.stderr).toMatch(expected);
      } finally {
        writeFileSync(founders, shipped);
      }
    },
  );

  it(
    "a new tagline, and the content editor's edit (a rename, a phone's JPEG and an iPhone's HEIC) show on / after npm run build",
    async () => {
      const content = path.join(root, "content");
      editFile(content, "site.yaml", (t) => t.replace(/^tagline: .*$/m, "tagline: Where founders find their circle."));
      // What the editor commits in tests/e2e/admin.spec.ts: the first founder renamed, with a phone's
      // "IMG_2041 (1).JPG" (EXIF: rotate 90°) uploaded as img_2041-1.jpg; the second with an iPhone's
      // IMG_2041.HEIC (a portrait: landscape pixels turned by irot) as img_2041.heic.
      editFile(content, "founders.yaml", (t) => t.replace("  - name: Maya Okafor\n", "  - name: Amara Nwosu-Ødegaard\n"));
      await cameraJpeg(path.join(content, "images", "img_2041-1.jpg"), { width: 1600, height: 1200 });
      giveFounderPhoto(content, "Amara Nwosu-Ødegaard", "images/img_2041-1.jpg");
      copyFileSync(PORTRAIT_HEIC, path.join(content, "images", "img_2041.heic"));
      giveFounderPhoto(content, "Daniel Reyes", "images/img_2041.heic");

      const check = run(root, "content:check");
      expect(check.status, check.stderr).toBe(0);
      const build = run(root, "build");
      expect(build.status, build.stderr).toBe(0);
      const server = await startServer({ SITE_URL: "https://founders.example.org" }, { cwd: root });
      servers.push(server);
      const html = await (await fetch(`${server.url}/`)).text();
      expect(html).toContain("Where founders find their circle.");

      const pictures = html.match(/<picture>[\s\S]*?<\/picture>/g) ?? [];
      expect(pictures).toHaveLength(2);
      const sourcesOf = (picture: string, name: string) => {
        const avif = /<source type="image\/avif" srcSet="([^"]+)" sizes="160px"\/>/.exec(picture)?.[1] ?? "";
        const webp = /<source type="image\/webp" srcSet="([^"]+)" sizes="160px"\/>/.exec(picture)?.[1] ?? "";
        expect(avif).toMatch(new RegExp(`^/assets/${name}-160w-[\\w-]{8}\\.avif 160w, /assets/${name}-320w-[\\w-]{8}\\.avif 320w$`));
        expect(webp).toMatch(new RegExp(`^/assets/${name}-160w-[\\w-]{8}\\.webp 160w, /assets/${name}-320w-[\\w-]{8}\\.webp 320w$`));
        return [...avif.split(", "), ...webp.split(", ")].map((candidate) => candidate.split(" ")[0]!);
      };
      expect(html).not.toContain("Maya Okafor");
      const jpegUrls = sourcesOf(pictures[0]!, "img-2041-1");
      const heicUrls = sourcesOf(pictures[1]!, "img-2041");
      for (const [picture, name] of [
        [pictures[0]!, "Amara Nwosu-Ødegaard"],
        [pictures[1]!, "Daniel Reyes"],
      ] as const) {
        const img = /<img [^>]*>/.exec(picture)?.[0] ?? "";
        for (const attribute of ['width="160"', 'height="160"', `alt="Portrait of ${name}"`, 'loading="lazy"', 'sizes="160px"'])
          expect(img).toContain(attribute);
      }

      // Every rendition is served as an immutable, hashed file of its type, and is small; the
      // HEIC's are the JPEG's formats and sizes, and show the portrait upright (red above blue).
      const served = async (url: string) => {
        const res = await fetch(`${server.url}${url}`);
        expect(res.status, url).toBe(200);
        expect(res.headers.get("content-type")).toBe(url.endsWith(".avif") ? "image/avif" : "image/webp");
        expect(res.headers.get("cache-control")).toMatch(/immutable/);
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(bytes.byteLength).toBeLessThan(30_000);
        const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
        const meta = await sharp(bytes).metadata();
        const at = (x: number, y: number) =>
          colourAt(data, info.width, info.channels, Math.round(x * (info.width - 1)), Math.round(y * (info.height - 1)));
        return { shape: [meta.format, meta.compression, info.width, info.height, info.channels], colours: [at(0.5, 0), at(0.5, 1)] };
      };
      const jpegRenditions = await Promise.all(jpegUrls.map(served));
      const heicRenditions = await Promise.all(heicUrls.map(served));
      expect(heicRenditions.map((r) => r.shape)).toEqual(jpegRenditions.map((r) => r.shape));
      // Square, as the pipeline crops them, at the sizes the srcset names.
      expect(jpegRenditions.map((r) => r.shape.slice(2, 4))).toEqual([160, 320, 160, 320].map((side) => [side, side]));
      expect(heicRenditions.map((r) => r.colours)).toEqual(heicUrls.map(() => ["red", "blue"]));

      // Only the first two founders have a photo; the others keep their monogram.
      expect(html.match(/data-testid="monogram"/g)).toHaveLength(4);
    },
    BUILD_TIMEOUT,
  );

  it("content:check passes on the shipped content", () => {
    const check = run(process.cwd(), "content:check");
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toContain("content/ is valid");
  });
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { precompressDirectory, pruneCache, UNUSED_FOR_MS, warmCache } from "../../scripts/precompress";

/** A script that compresses well (words repeated), over the 1 KiB below which nothing is compressed. */
const script = "export const words = [" + Array.from({ length: 400 }, (_, i) => `"word${i % 37}"`).join(",") + "];\n";

let dir: string;
let cacheDir: string | undefined;
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  cacheDir = undefined;
});

describe("precompressDirectory", () => {
  it("writes .br and .gz beside compressible files over 1 KiB, recursively, and skips the rest", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "precompress-"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "assets", "app.js"), script);
    writeFileSync(path.join(dir, "site.webmanifest"), JSON.stringify({ name: "x".repeat(2000) }));
    writeFileSync(path.join(dir, "small.css"), "a{color:red}");
    writeFileSync(path.join(dir, "photo.png"), randomBytes(4096));
    // Random bytes do not compress: no variant bigger than the original is kept.
    writeFileSync(path.join(dir, "assets", "noise.js"), randomBytes(4096));

    const written = await precompressDirectory(dir);
    expect(written.map((w) => path.relative(dir, w.file)).sort()).toEqual(["assets/app.js", "assets/noise.js", "site.webmanifest"]);
    const names = [...readdirSync(dir), ...readdirSync(path.join(dir, "assets")).map((f) => `assets/${f}`)].sort();
    expect(names).toEqual([
      "assets",
      "assets/app.js",
      "assets/app.js.br",
      "assets/app.js.gz",
      "assets/noise.js",
      "photo.png",
      "site.webmanifest",
      "site.webmanifest.br",
      "site.webmanifest.gz",
      "small.css",
    ]);
    expect(brotliDecompressSync(readFileSync(path.join(dir, "assets", "app.js.br"))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(path.join(dir, "assets", "app.js.gz"))).toString()).toBe(script);
    const app = written.find((w) => w.file.endsWith("app.js"))!;
    expect(app.br).toBeLessThan(app.bytes / 4);
  });

  it("keeps each result in the cache by the file's bytes, and a rebuild takes it from there", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "precompress-"));
    cacheDir = path.join(mkdtempSync(path.join(tmpdir(), "precompress-cache-")), "nested");
    writeFileSync(path.join(dir, "app.js"), script);

    const first = await precompressDirectory(dir, cacheDir);
    expect(first.map((w) => w.cached)).toEqual([false]);
    // Two results (brotli, gzip), and nothing half-written.
    expect(readdirSync(cacheDir)).toHaveLength(2);
    const made = readFileSync(path.join(dir, "app.js.br"));

    // The same bytes in another build: taken from the cache, the same variants.
    rmSync(path.join(dir, "app.js.br"));
    rmSync(path.join(dir, "app.js.gz"));
    const again = await precompressDirectory(dir, cacheDir);
    expect(again.map((w) => w.cached)).toEqual([true]);
    expect(readFileSync(path.join(dir, "app.js.br"))).toEqual(made);
    expect(gunzipSync(readFileSync(path.join(dir, "app.js.gz"))).toString()).toBe(script);

    // Other bytes: compressed afresh, never an older file's result.
    writeFileSync(path.join(dir, "app.js"), script.replace("word1", "changed"));
    const changed = await precompressDirectory(dir, cacheDir);
    expect(changed.map((w) => w.cached)).toEqual([false]);
    expect(brotliDecompressSync(readFileSync(path.join(dir, "app.js.br"))).toString()).toContain("changed");
  });

  it("warms the cache with the files there now, writing nothing beside them; the last pass takes those and compresses the rest", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "precompress-"));
    cacheDir = mkdtempSync(path.join(tmpdir(), "precompress-cache-"));
    writeFileSync(path.join(dir, "app.js"), script);

    expect(await warmCache(dir, cacheDir)).toBe(1);
    expect(readdirSync(dir)).toEqual(["app.js"]);
    // Written after the warm-up (as the server build adds the route manifest): compressed by the last pass.
    writeFileSync(path.join(dir, "manifest.js"), script.replace("word1", "manifest"));

    const written = await precompressDirectory(dir, cacheDir);
    expect(written.map((w) => [path.basename(w.file), w.cached]).sort()).toEqual([
      ["app.js", true],
      ["manifest.js", false],
    ]);
    expect(brotliDecompressSync(readFileSync(path.join(dir, "manifest.js.br"))).toString()).toContain("manifest");
    expect(gunzipSync(readFileSync(path.join(dir, "app.js.gz"))).toString()).toBe(script);
  });

  it("a warm-up that cannot write its cache resolves, and leaves the work to the last pass", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "precompress-"));
    writeFileSync(path.join(dir, "app.js"), script);
    // A cache "directory" under a file cannot be made.
    const blocked = path.join(dir, "app.js", "cache");
    await expect(warmCache(dir, blocked)).resolves.toBe(0);
    expect(readdirSync(dir)).toEqual(["app.js"]);
  });

  it("prunes the results no build has used for a week: a build that takes one from the cache keeps it", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "precompress-"));
    cacheDir = mkdtempSync(path.join(tmpdir(), "precompress-cache-"));
    writeFileSync(path.join(dir, "app.js"), script);
    await precompressDirectory(dir, cacheDir);
    const before = new Set(readdirSync(cacheDir));
    writeFileSync(path.join(dir, "app.js"), script.replace("word1", "changed"));
    await precompressDirectory(dir, cacheDir);
    const current = readdirSync(cacheDir).filter((name) => !before.has(name));
    expect(current).toHaveLength(2);

    // Every result last used eight days ago; a build then takes the current file's from the cache.
    const eightDaysAgo = new Date(Date.now() - UNUSED_FOR_MS - 86_400_000);
    for (const name of readdirSync(cacheDir)) utimesSync(path.join(cacheDir, name), eightDaysAgo, eightDaysAgo);
    expect((await precompressDirectory(dir, cacheDir)).map((w) => w.cached)).toEqual([true]);

    expect(pruneCache(cacheDir)).toBe(2);
    expect(readdirSync(cacheDir).sort()).toEqual(current.sort());
    // Last used six days ago: kept.
    const sixDaysAgo = new Date(Date.now() - UNUSED_FOR_MS + 86_400_000);
    for (const name of current) utimesSync(path.join(cacheDir, name), sixDaysAgo, sixDaysAgo);
    expect(pruneCache(cacheDir)).toBe(0);
    expect(readdirSync(cacheDir).sort()).toEqual(current.sort());
  });

  it("prunes nothing, and does not fail, when there is no cache yet", () => {
    dir = mkdtempSync(path.join(tmpdir(), "precompress-"));
    expect(pruneCache(path.join(dir, "no-cache"))).toBe(0);
  });
});

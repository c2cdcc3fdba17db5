import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { precompressDirectory } from "../../scripts/precompress";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("precompressDirectory", () => {
  it("writes .br and .gz beside compressible files over 1 KiB, recursively, and skips the rest", () => {
    dir = mkdtempSync(path.join(tmpdir(), "precompress-"));
    mkdirSync(path.join(dir, "assets"));
    const script = "export const words = [" + Array.from({ length: 400 }, (_, i) => `"word${i % 37}"`).join(",") + "];\n";
    writeFileSync(path.join(dir, "assets", "app.js"), script);
    writeFileSync(path.join(dir, "site.webmanifest"), JSON.stringify({ name: "x".repeat(2000) }));
    writeFileSync(path.join(dir, "small.css"), "a{color:red}");
    writeFileSync(path.join(dir, "photo.png"), randomBytes(4096));
    // Random bytes do not compress: no variant bigger than the original is kept.
    writeFileSync(path.join(dir, "assets", "noise.js"), randomBytes(4096));

    const written = precompressDirectory(dir);
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
});

// A lazy chunk (the toasts: app/root.tsx) is fetched once, by its own import(). Vite's preload helper would
// also insert a <link rel="modulepreload"> for that same chunk, which only races the import; the engine suite
// once saw that link fail in Firefox with nothing else wrong (vite.config.ts's build.modulePreload).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ASSETS = "build/client/assets";

/** Each `import("./x.js"),__vite__mapDeps([...])` of the built scripts: the chunk, and the files preloaded with it. */
function lazyImports(): { chunk: string; preloaded: string[] }[] {
  return readdirSync(ASSETS)
    .filter((name) => name.endsWith(".js"))
    .flatMap((name) => {
      const code = readFileSync(path.join(ASSETS, name), "utf8");
      const list = /m\.f\|\|\(m\.f=(\[[^\]]*\])\)/.exec(code)?.[1];
      const files = list ? (JSON.parse(list) as string[]) : [];
      return [...code.matchAll(/import\("\.\/([^"]+\.js)"\),__vite__mapDeps\(\[([\d,]*)\]\)/g)].map(([, chunk, indexes]) => ({
        chunk: `assets/${chunk}`,
        preloaded: indexes!
          .split(",")
          .filter(Boolean)
          .map((i) => files[Number(i)]!),
      }));
    });
}

describe("lazy chunks", () => {
  it("the toasts' chunk is loaded lazily, with its dependencies preloaded and never itself", () => {
    const imports = lazyImports();
    expect(imports.map(({ chunk }) => chunk)).toContainEqual(expect.stringMatching(/^assets\/toaster-[\w-]+\.js$/));
    for (const { chunk, preloaded } of imports) {
      expect(preloaded.length, chunk).toBeGreaterThan(0);
      // Each index names a file of the list (a change in how Vite writes it would otherwise leave nothing to compare).
      for (const file of preloaded) expect(file, chunk).toMatch(/^assets\/[\w.-]+\.js$/);
      expect(preloaded, chunk).not.toContain(chunk);
    }
  });
});

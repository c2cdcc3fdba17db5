// The built server carries most of its dependencies' code (vite.config.ts). A package written for
// CommonJS that reads its own file's name or requires a module inside a function keeps working when
// Node loads it, and breaks only in an ES module bundle, and only when that line runs: the saved copy's
// atomic write named its temporary file from __filename, and every save failed. So no chunk of the
// build may use CommonJS's own names; such a package stays external (vite.config.ts says which).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SERVER_BUILD = path.resolve("build/server");

/** Every line of a chunk that uses a name only CommonJS defines (a require the chunk made itself is its own). */
function commonJsNames(source: string): string[] {
  const ownRequire = /\b(?:const|let|var)\s+require\s*=/.test(source);
  return source
    .split("\n")
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(
      ({ line }) => /(?<![\w$.])(?:__dirname|__filename)(?![\w$])/.test(line) || (!ownRequire && /(?<![\w$.])require\s*\(/.test(line)),
    )
    .map(({ line, number }) => `${number}: ${line.trim().slice(0, 120)}`);
}

describe("the server build", () => {
  // Each chunk's text, read once for both checks.
  const chunks = new Map(
    readdirSync(SERVER_BUILD, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".js"))
      .map((file) => [file, readFileSync(path.join(SERVER_BUILD, file), "utf8")]),
  );

  it("carries its dependencies' code (zod's, React Router's) rather than importing their packages", () => {
    const imported = [...chunks.values()].flatMap((source) =>
      [...source.matchAll(/^import\s[^;]*?["']([^"'.][^"']*)["']/gm)].map((match) => match[1]!),
    );
    expect(imported).toContain("react");
    expect(imported.filter((specifier) => /^(?:zod|react-router|@react-router\/node|sanitize-html)(?:\/|$)/.test(specifier))).toEqual([]);
  });

  it("uses no name only CommonJS defines (__dirname, __filename, a bare require)", () => {
    expect(chunks.size).toBeGreaterThan(1);
    const found = [...chunks].flatMap(([chunk, source]) => commonJsNames(source).map((line) => `${chunk}:${line}`));
    expect(found).toEqual([]);
  });
});

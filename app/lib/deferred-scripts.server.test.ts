import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import {
  DEFERRED_ATTRIBUTE,
  DEFERRED_CLASSIC_ATTRIBUTE,
  DEFERRED_CLASSIC_TYPE,
  DEFERRED_TYPE,
  RUNS_AT_LOAD_ATTRIBUTE,
} from "./deferred-scripts";
import { deferModuleScripts, deferModuleScriptsStream } from "./deferred-scripts.server";

// The shape React Router's <Scripts> renders, as React writes it (its scripts' code stands in, whatever names it uses),
// around the site's own scripts.
const PAGE = [
  '<html><head><link rel="stylesheet" href="/assets/app.css"/>',
  '<link rel="modulepreload" href="/assets/entry.client-a.js" nonce="n0"/><link rel="modulepreload" href="/assets/chunk-b.js" nonce="n0"/>',
  '<script type="speculationrules">{"prerender":[]}</script>',
  '</head><body><main>Hello</main><script nonce="n0">window.routerContext = {};</script>',
  '<script nonce="n0" type="module" async="">import * as route0 from "/assets/root-c.js";\nimport("/assets/entry.client-a.js");</script>',
  '<script nonce="n0">window.routerContext.streamController.enqueue("[1]");</script>',
  "<script>window.routerContext.streamController.close();</script>",
  `<script ${RUNS_AT_LOAD_ATTRIBUTE}="">(function startOnFirstInteraction() {})();</script>`,
  '<script type="application/ld+json">{"@type":"Organization"}</script></body></html>',
].join("");

describe("deferModuleScripts", () => {
  it("drops module preloads and leaves React Router's module script inert, nonce and code intact", () => {
    const out = deferModuleScripts(PAGE);
    expect(out).not.toContain("modulepreload");
    expect(out).not.toContain('type="module"');
    expect(out).toContain(
      `<script nonce="n0" type="${DEFERRED_TYPE}" ${DEFERRED_ATTRIBUTE}="">import * as route0 from "/assets/root-c.js";\nimport("/assets/entry.client-a.js");</script>`,
    );
  });

  it("leaves React Router's context and data scripts (classic, unmarked) inert too, in place, nonce and code intact", () => {
    const out = deferModuleScripts(PAGE);
    const inert = (nonce: string) => `<script${nonce} type="${DEFERRED_CLASSIC_TYPE}" ${DEFERRED_CLASSIC_ATTRIBUTE}="">`;
    expect(out).toContain(`${inert(' nonce="n0"')}window.routerContext = {};</script>`);
    expect(out).toContain(`${inert(' nonce="n0"')}window.routerContext.streamController.enqueue("[1]");</script>`);
    expect(out).toContain(`${inert("")}window.routerContext.streamController.close();</script>`);
    expect(out).not.toMatch(/<script(?: nonce="n0")?>/);
  });

  it("leaves everything else as it was: the site's own script that runs at load among it", () => {
    const out = deferModuleScripts(PAGE);
    for (const kept of [
      '<link rel="stylesheet" href="/assets/app.css"/>',
      '<script type="speculationrules">{"prerender":[]}</script>',
      `<script ${RUNS_AT_LOAD_ATTRIBUTE}="">(function startOnFirstInteraction() {})();</script>`,
      '<script type="application/ld+json">{"@type":"Organization"}</script>',
      "<main>Hello</main>",
    ]) {
      expect(out).toContain(kept);
    }
  });

  it("rewrites a streamed page whose tags are split across chunks", async () => {
    const chunks = PAGE.match(/[\s\S]{1,7}/g) ?? [];
    const out = await text(Readable.from(chunks).pipe(deferModuleScriptsStream()));
    expect(out).toBe(deferModuleScripts(PAGE));
  });
});

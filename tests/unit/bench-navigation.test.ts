import { describe, expect, it } from "vitest";
import { staticCopy } from "../../scripts/bench/navigation.js";

describe("the navigation bench's static copy of a page", () => {
  it("keeps the HTML, the stylesheet and the speculation rules, and removes every script", () => {
    const page = [
      '<head><link rel="stylesheet" href="/assets/app.css"><link rel="modulepreload" href="/assets/entry.js">',
      '<script type="speculationrules">{"prerender":[]}</script>',
      '<script type="application/ld+json">{"@type":"Organization"}</script></head>',
      '<body><main><h1>About</h1></main><script type="text/x-deferred-script" data-deferred-script="">window.__reactRouterContext = {};</script>',
      '<script type="text/x-deferred-module" data-deferred-module="">import("/assets/entry.js");</script>',
      "<script>(function start() { addEventListener('pointerdown', () => {}); })();</script></body>",
    ].join("\n");
    const copy = staticCopy(page);
    expect(copy).toContain('<link rel="stylesheet" href="/assets/app.css">');
    expect(copy).toContain('<script type="speculationrules">{"prerender":[]}</script>');
    expect(copy).toContain("<main><h1>About</h1></main>");
    expect(copy.match(/<script/g)).toHaveLength(1);
    expect(copy).not.toContain("modulepreload");
  });
});

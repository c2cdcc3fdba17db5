// The benchmark judges the 404 page without the audits it fails by design, and only those.
import type { Result } from "lighthouse";
import { describe, expect, it } from "vitest";
import { notFoundByDesign, scoreWithout } from "../../scripts/bench/audits.js";

const URL_404 = "http://127.0.0.1:4000/no-such-page";
const noindex = { source: { type: "node", snippet: '<meta name="robots" content="noindex" />' } };
const documentError = {
  source: "network",
  description: "Failed to load resource: the server responded with a status of 404 (Not Found)",
  sourceLocation: { url: URL_404 },
};

/** Just the parts of a Lighthouse result these functions read. */
function lhr({ crawl = [noindex], console: consoleItems = [documentError] }: { crawl?: unknown[]; console?: unknown[] } = {}): Result {
  const audit = (score: number, items: unknown[] = []) => ({ score, scoreDisplayMode: "binary", details: { items } });
  const partial = {
    mainDocumentUrl: URL_404,
    finalDisplayedUrl: URL_404,
    categories: {
      seo: {
        score: 0.5,
        auditRefs: [
          { id: "http-status-code", weight: 1 },
          { id: "is-crawlable", weight: 1 },
          { id: "document-title", weight: 1 },
          { id: "meta-description", weight: 1 },
        ],
      },
      "best-practices": {
        score: 0.5,
        auditRefs: [
          { id: "errors-in-console", weight: 1 },
          { id: "doctype", weight: 1 },
        ],
      },
    },
    audits: {
      "http-status-code": audit(0),
      "is-crawlable": audit(0, crawl),
      "document-title": audit(1),
      "meta-description": audit(1),
      "errors-in-console": audit(0, consoleItems),
      doctype: audit(1),
    },
  };
  return partial as unknown as Result;
}

describe("404 audits excused by design", () => {
  it("excuses the status, the page's own noindex and the document's 404 console line, on a 404 only", () => {
    const result = lhr();
    const excused = notFoundByDesign(result, 404);
    expect([...excused].sort()).toEqual(["errors-in-console", "http-status-code", "is-crawlable"]);
    expect(scoreWithout(result, "seo", excused)).toBe(100);
    expect(scoreWithout(result, "best-practices", excused)).toBe(100);
    expect(notFoundByDesign(result, 200).size).toBe(0);
    expect(scoreWithout(result, "seo", new Set())).toBe(50);
  });

  it("still counts any other console error or indexing blocker", () => {
    const result = lhr({
      crawl: [noindex, { source: { type: "node", snippet: '<meta name="googlebot" content="noindex" />' } }],
      console: [documentError, { source: "javascript", description: "TypeError: x is undefined", sourceLocation: { url: URL_404 } }],
    });
    const excused = notFoundByDesign(result, 404);
    expect([...excused]).toEqual(["http-status-code"]);
    expect(scoreWithout(result, "seo", excused)).toBe(67);
    expect(scoreWithout(result, "best-practices", excused)).toBe(50);
  });
});

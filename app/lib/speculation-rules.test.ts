import { describe, expect, it } from "vitest";
import { eventIcsPath, eventImagePath, eventPagePath, EVENTS_API_PATH, SAMPLE_FEED_PATH } from "~/events/links";
import { ADMIN_CONFIG_PATH, ADMIN_PATH } from "~/site-routes";
import type { speculationRules } from "./speculation-rules";
import { NOT_SPECULATED_SELECTOR, speculatedPaths, speculationRulesJson } from "./speculation-rules";

// Node 20 has no URLPattern: the patterns here use only literal paths and `:name` segments, which
// this reads as URLPattern does (a query string is allowed). tests/e2e/speculation.spec.ts checks the
// same list with Chromium's own URLPattern.
function matches(path: string): boolean {
  const pathname = new URL(path, "http://site.test").pathname;
  return speculatedPaths.some((pattern) => {
    expect(pattern).toMatch(/^\/[a-z/:]*$/);
    const source = pattern.replace(/:[a-z]+/g, "[^/]+");
    return new RegExp(`^${source}$`).test(pathname);
  });
}

describe("speculation rules", () => {
  it("prefetch our pages when the pointer reaches a link, prerender them when it rests there", () => {
    const parsed = JSON.parse(speculationRulesJson) as typeof speculationRules;
    expect(Object.keys(parsed).sort()).toEqual(["prefetch", "prerender"]);
    for (const [rule, eagerness] of [
      ...parsed.prerender.map((rule) => [rule, "moderate"] as const),
      ...parsed.prefetch.map((rule) => [rule, "eager"] as const),
    ]) {
      expect(rule).toEqual({
        source: "document",
        eagerness,
        where: { and: [{ href_matches: [...speculatedPaths] }, { not: { selector_matches: NOT_SPECULATED_SELECTOR } }] },
      });
    }
  });

  it.each(["/", "/about", "/apply", "/contact", "/portal", "/events", "/events?tab=past", eventPagePath("kickoff-2026")])(
    "name the page %s",
    (path) => expect(matches(path)).toBe(true),
  );

  it.each([
    EVENTS_API_PATH,
    eventIcsPath("kickoff-2026"),
    SAMPLE_FEED_PATH,
    eventImagePath("kickoff-2026"),
    ADMIN_PATH,
    ADMIN_CONFIG_PATH,
    "/sitemap.xml",
    "/robots.txt",
    "/favicon.svg",
    "/assets/app.css",
    "/__manifest",
    "/about.data",
  ])("never name %s", (path) => expect(matches(path)).toBe(false));

  it("leave out downloads, new tabs and links marked external or nofollow", () => {
    for (const part of ["[download]", "[target]", "[rel~=nofollow]", "[rel~=external]", "[data-tab]"])
      expect(NOT_SPECULATED_SELECTOR).toContain(part);
  });
});

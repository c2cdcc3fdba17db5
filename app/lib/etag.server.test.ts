import { describe, expect, it } from "vitest";
import { etagOf, matchesEtag } from "./etag.server";

describe("ETags", () => {
  const tag = etagOf("body");

  it.each([
    [null, false],
    ["", false],
    [tag, true],
    [`W/${tag}`, true],
    [`"other", ${tag}`, true],
    ["*", true],
    [`"other"`, false],
  ])("If-None-Match %j matches: %s", (header, expected) => {
    expect(matchesEtag(header, tag)).toBe(expected);
  });

  it("changes with the body", () => {
    expect(etagOf("a")).not.toBe(etagOf("b"));
  });
});

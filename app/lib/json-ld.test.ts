import { describe, expect, it } from "vitest";
import { jsonLdScript } from "./json-ld";

describe("jsonLdScript", () => {
  it("cannot close its script element or open a comment", () => {
    const value = { name: "</script><script>alert(1)</script>", note: "<!-- x" };
    const text = jsonLdScript(value);
    expect(text).not.toContain("<");
    expect(JSON.parse(text)).toEqual(value);
  });
});

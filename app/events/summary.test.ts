import { describe, expect, it } from "vitest";
import { summaryOf } from "./summary";

describe("summaryOf", () => {
  it("keeps a short text whole, on one line", () => {
    expect(summaryOf("One\n• two", 50)).toBe("One • two");
  });
  it("cuts a long text at a word, with an ellipsis, within the limit", () => {
    const summary = summaryOf("The quick brown fox jumps over the lazy dog again and again", 30);
    expect(summary).toBe("The quick brown fox jumps…");
    expect(summary.length).toBeLessThanOrEqual(30);
  });
});

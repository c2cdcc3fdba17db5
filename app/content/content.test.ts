import { describe, expect, it } from "vitest";
import { content } from "./index";
import { contentProblems } from "./validate";

describe("site content", () => {
  it("is valid as shipped", () => {
    expect(contentProblems()).toEqual([]);
  });

  it("has the spec's counts", () => {
    expect(content.founders).toHaveLength(6);
    expect(content.board).toHaveLength(7);
    expect(content.benefits).toHaveLength(6);
    expect(content.steps).toHaveLength(3);
  });

  it.each([
    ["a seventh founder", { ...content, founders: [...content.founders, content.founders[0]] }, "content.founders"],
    ["a missing board member", { ...content, board: content.board.slice(1) }, "content.board"],
    ["a remote photo", { ...content, founders: content.founders.map((f, i) => (i === 0 ? { ...f, image: { src: "https://images.example.com/a.jpg", width: 1, height: 1, alt: "" } } : f)) }, "content.founders.0.image.src"],
    ["a non-http provider URL", { ...content, site: { ...content.site, provider: { ...content.site.provider, loginUrl: "javascript:alert(1)" } } }, "content.site.provider.loginUrl"],
    ["an empty benefit title", { ...content, benefits: content.benefits.map((b, i) => (i === 2 ? { ...b, title: " " } : b)) }, "content.benefits.2.title"],
    ["a bad e-mail", { ...content, site: { ...content.site, email: "not-an-email" } }, "content.site.email"],
    ["a made-up non-profit status", { ...content, site: { ...content.site, nonprofitStatus: "Charity" } }, "content.site.nonprofitStatus"],
  ])("rejects %s and names the field", (_label, value, field) => {
    const problems = contentProblems(value);
    expect(problems.some((p) => p.startsWith(`${field}:`))).toBe(true);
  });

  it("states the disclaimer: not-for-profit and not affiliated", () => {
    expect(content.about.disclaimer).toMatch(/not-for-profit/i);
    expect(content.about.disclaimer).toMatch(/not affiliated/i);
  });
});

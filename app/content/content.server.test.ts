import { describe, expect, it } from "vitest";
import { defaultContentOptions } from "./plugin.server";
import { about, apply, benefits, board, founders, site, steps } from "./index";
import { loadContent } from "./load.server";

// The content as shipped in content/: valid, and compiled into the site with the spec's counts.
describe("shipped content", () => {
  it("is valid", async () => {
    const { problems } = await loadContent(defaultContentOptions.dir);
    expect(problems).toEqual([]);
  });

  it("has the spec's counts: 6 founders, 7 board members, 6 benefits, 3 steps", () => {
    expect(founders).toHaveLength(6);
    expect(board).toHaveLength(7);
    expect(benefits).toHaveLength(6);
    expect(steps).toHaveLength(3);
  });

  it("keeps the spec's three steps", () => {
    expect(steps.map((s) => s.title)).toEqual(["Complete the application", "Review process", "Welcome aboard"]);
  });

  it("answers applicants: eligibility, dues, review time and the FAQ the issue lists", () => {
    expect(apply.eligibility.criteria.map((c) => c.title).join(" ")).toMatch(/alumn.*founder.*company/is);
    expect(apply.dues.amount).not.toBe("");
    expect(apply.review.duration).toMatch(/week/);
    const questions = apply.faq.map((q) => q.question).join(" ");
    for (const topic of [/cost/i, /how long/i, /confidential/i, /affiliated/i]) expect(questions).toMatch(topic);
  });

  it("states the disclaimer: not-for-profit and not affiliated", () => {
    expect(about.disclaimer).toMatch(/not-for-profit/i);
    expect(about.disclaimer).toMatch(/not affiliated/i);
  });

  it("shows no stranger's calendar by default: site.yaml sets no embed", () => {
    expect(site.calendar?.embedUrl).toBeUndefined();
  });
});

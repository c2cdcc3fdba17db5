import { describe, expect, it } from "vitest";
import { badgeLabel, eventTitle, eventType } from "./classify";

describe("eventType and badge", () => {
  it.each([
    ["Members Dinner", "members-only", "Members Only"],
    ["MEMBER mixer", "members-only", "Members Only"],
    ["Core group (members only)", "members-only", "Members Only"],
    ["Remembering our founders", "members-only", "Members Only"],
    ["Open house", "open", "Open"],
    ["Speaker series: Fundraising", "open", "Open"],
    [undefined, "open", "Open"],
  ] as const)("%j → %s", (title, type, label) => {
    expect(eventType(title)).toBe(type);
    expect(badgeLabel[eventType(title)]).toBe(label);
  });
});

describe("eventTitle", () => {
  it.each([
    [{ id: "1", summary: "Speaker night" }, "Speaker night"],
    [{ id: "2", summary: "   " }, "Untitled Event"],
    [{ id: "3" }, "Untitled Event"],
  ])("%j → %s", (event, title) => {
    expect(eventTitle(event)).toBe(title);
  });
});

import { describe, expect, it } from "vitest";
import { joinDetails } from "./join";

describe("joinDetails", () => {
  it("takes a link location as the way to join online", () => {
    expect(joinDetails({ id: "a", location: "https://meet.example.org/x" })).toEqual({ joinUrl: "https://meet.example.org/x", links: [] });
  });

  it("takes an 'Online …' location as a note and a street address as a place", () => {
    expect(joinDetails({ id: "a", location: "Online (link sent after RSVP)" }).onlineNote).toBe("Online (link sent after RSVP)");
    expect(joinDetails({ id: "a", location: "2 W 44th St, New York, NY" }).place).toBe("2 W 44th St, New York, NY");
  });

  it("lists the description's links, except the one the location already gives", () => {
    const descriptionLinks = [
      { href: "https://meet.example.org/x", text: "the call" },
      { href: "mailto:hi@example.org", text: "mail" },
    ];
    expect(joinDetails({ id: "a", location: "https://meet.example.org/x", descriptionLinks }).links).toEqual([
      { href: "mailto:hi@example.org", text: "mail" },
    ]);
  });

  it("has nothing to say for an event that provides nothing", () => {
    expect(joinDetails({ id: "a" })).toEqual({ links: [] });
  });
});

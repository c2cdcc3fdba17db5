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

  it("lists the description's links once each, with their text, and only safe ones", () => {
    const description =
      '<p>RSVP at <a href="https://example.org/rsvp?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">our <b>form</b></a>, ' +
      'again <a href="https://example.org/rsvp?a=1&amp;b=2">here</a>, or <a href="mailto:hi@example.org">mail</a>; <span>not a link</span></p>';
    expect(joinDetails({ id: "a", description }).links).toEqual([
      { href: "https://example.org/rsvp?a=1&b=2", text: "our form" },
      { href: "mailto:hi@example.org", text: "mail" },
    ]);
  });

  it("has nothing to say for an event that provides nothing", () => {
    expect(joinDetails({ id: "a" })).toEqual({ links: [] });
  });
});

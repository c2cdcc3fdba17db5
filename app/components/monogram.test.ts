import { describe, expect, it } from "vitest";
import { monogram } from "./monogram";

describe("monogram", () => {
  it.each([
    ["Maya Okafor", "MO"],
    ["Priya  Nair", "PN"],
    ["madonna", "M"],
    ["Jean-Luc de la Croix", "JC"],
    ["Élodie Ünal", "ÉÜ"],
    ["  ", ""],
    ["Dr. Samuel Adeyemi", "DA"],
  ])("%j → %j", (name, expected) => {
    expect(monogram(name)).toBe(expected);
  });
});

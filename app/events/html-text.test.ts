import { describe, expect, it } from "vitest";
import { htmlToText, summaryOf } from "./html-text";

describe("htmlToText", () => {
  it.each([
    ["<b>Bold</b> and <i>italic</i>", "Bold and italic"],
    ["Line one<br>Line two<br/>Three", "Line one\nLine two\nThree"],
    ["<ul><li>One</li><li>Two</li></ul>", "• One\n• Two"],
    ["Fish &amp; chips &lt;3 &#39;x&#x27; caf&eacute;", "Fish & chips <3 'x' caf&eacute;"],
    // The JSON-LD used to run these together ("facilitator.• 6:30 pm") where the .ics had a new line.
    [
      "<p>Dinner with your facilitator.</p><ul><li>6:30 pm drinks</li><li>7:00 pm dinner</li></ul>",
      "Dinner with your facilitator.\n\n• 6:30 pm drinks\n• 7:00 pm dinner",
    ],
    ["Dinner with your facilitator.<ul><li>6:30 pm</li></ul>", "Dinner with your facilitator.\n• 6:30 pm"],
    [
      '<b>Agenda</b><br><ul><li>Talk &amp; Q&amp;A</li><li>Drinks</li></ul><script>x()</script>See <a href="https://a.example">site</a>',
      "Agenda\n\n• Talk & Q&A\n• Drinks\n\nSee site",
    ],
    ["<p>a</p>\n\n<p>b   c\n d</p>", "a\n\nb c d"],
    ['<a href="https://a.example/?q=>x">link</a> after', "link after"],
    ["<!-- note -->visible<style>p{}</style>", "visible"],
    ["One<br><br><br><br>Two", "One\n\nTwo"],
    [undefined, ""],
    ["", ""],
  ])("%j → %j", (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });
});

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

import { describe, expect, it } from "vitest";
import { descriptionTextOf, EXCERPT_CHARS, excerptOf, listEventOf, readDescription, readHtml } from "./description.server";

describe("readHtml: the text of sanitized HTML", () => {
  it.each([
    ["<b>Bold</b> and <i>italic</i>", "Bold and italic"],
    ["Line one<br>Line two<br />Three", "Line one\nLine two\nThree"],
    ["<ul><li>One</li><li>Two</li></ul>", "• One\n• Two"],
    ["Fish &amp; chips &lt;3 &#39;x&#x27; caf&eacute;", "Fish & chips <3 'x' café"],
    // The JSON-LD used to run these together ("facilitator.• 6:30 pm") where the .ics had a new line.
    [
      "<p>Dinner with your facilitator.</p><ul><li>6:30 pm drinks</li><li>7:00 pm dinner</li></ul>",
      "Dinner with your facilitator.\n\n• 6:30 pm drinks\n• 7:00 pm dinner",
    ],
    ["Dinner with your facilitator.<ul><li>6:30 pm</li></ul>", "Dinner with your facilitator.\n• 6:30 pm"],
    ["<p>a</p>\n\n<p>b   c\n d</p>", "a\n\nb c d"],
    ['<a href="https://a.example/?q=&gt;x">link</a> after', "link after"],
    ["One<br><br><br><br>Two", "One\n\nTwo"],
    ["a&nbsp;b", "a b"],
    ["", ""],
  ])("%j → %j", (html, text) => {
    expect(readHtml(html).text).toBe(text);
  });
});

/** What a page reads of a description: the stored HTML, then its text and links. */
function allForms(raw: string | undefined) {
  const stored = readDescription(raw);
  return { ...stored, ...descriptionTextOf(stored.description) };
}

describe("readDescription: a calendar's description in every form", () => {
  it("is nothing for no description or only spaces", () => {
    expect(allForms(undefined)).toEqual({});
    expect(allForms("  \n ")).toEqual({});
  });

  it("sanitizes HTML and reads its text and links from the sanitized copy", () => {
    const forms = allForms(
      '<b>Agenda</b><br><ul><li>Talk &amp; Q&amp;A</li><li>Drinks</li></ul><script>x()</script>See <a href="https://a.example" onclick="x()">site</a>',
    );
    expect(forms.description).not.toMatch(/script|onclick/);
    expect(forms.descriptionText).toBe("Agenda\n\n• Talk & Q&A\n• Drinks\n\nSee site");
    expect(forms.descriptionLinks).toEqual([{ href: "https://a.example", text: "site" }]);
  });

  it("lists each link once, with its text, and only http(s) and mailto ones", () => {
    const forms = allForms(
      '<p>RSVP at <a href="https://example.org/rsvp?a=1&amp;b=2">our <b>form</b></a>, ' +
        'again <a href="https://example.org/rsvp?a=1&amp;b=2">here</a>, or <a href="mailto:hi@example.org">mail</a>; ' +
        '<a href="javascript:alert(1)">not a link</a> <a href="https://x.example/"> </a></p>',
    );
    expect(forms.descriptionLinks).toEqual([
      { href: "https://example.org/rsvp?a=1&b=2", text: "our form" },
      { href: "mailto:hi@example.org", text: "mail" },
      { href: "https://x.example/", text: "https://x.example/" },
    ]);
  });

  it("keeps plain text as it reads, line breaks included, with no links", () => {
    const forms = allForms("Bring a friend & a laptop.\r\nhttps://example.org <not a tag");
    expect(forms.description).toBe("Bring a friend &amp; a laptop.<br>https://example.org &lt;not a tag");
    expect(forms.descriptionText).toBe("Bring a friend & a laptop.\nhttps://example.org <not a tag");
    expect(forms.descriptionLinks).toBeUndefined();
  });

  it("keeps awkward text whole: right-to-left, CJK, emoji, long words", () => {
    const raw = "<p>اجتماع المؤسسين 🚀</p><p>創業者の夕食会 Donaudampfschifffahrtsgesellschaftskapitänswitwe</p>";
    expect(allForms(raw).descriptionText).toBe("اجتماع المؤسسين 🚀\n\n創業者の夕食会 Donaudampfschifffahrtsgesellschaftskapitänswitwe");
  });
});

describe("excerptOf: what a list card shows of a description", () => {
  const rich = readDescription(
    "<b>Founders Dinner</b><br><br>Join fellow founders for an evening on <i>pricing</i>. We keep it small, candid and practical: " +
      "bring one question you are stuck on, leave with three people who have solved it.<br><br><u>Agenda</u><ul><li>6:30 pm: doors open</li>" +
      '<li>7:00 pm: a talk</li></ul>RSVP: <a href="https://lu.ma/x">https://lu.ma/x</a>',
  ).description;

  it("is plain text on one line, cut at a word within EXCERPT_CHARS, without a first line that repeats the title", () => {
    const excerpt = excerptOf(rich, "Founders Dinner");
    expect(excerpt).toMatch(/^Join fellow founders for an evening on pricing\. We keep it small/);
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARS);
    expect(excerpt).toMatch(/\w…$/);
    expect(excerpt).not.toMatch(/[<>\n]/);
  });

  it("keeps a first line that is not the title, and a short text whole", () => {
    expect(excerptOf(rich, "Another title")).toMatch(/^Founders Dinner Join fellow founders/);
    expect(excerptOf(readDescription("Bring a friend &amp; a laptop.<br>Doors at 7.").description, "Dinner")).toBe(
      "Bring a friend & a laptop. Doors at 7.",
    );
  });

  it("is nothing without text", () => {
    expect(excerptOf(undefined, "Dinner")).toBe("");
    expect(excerptOf("<ul><li> </li></ul>", "Dinner")).toBe("");
  });

  it("never cuts a character in two (an emoji is two UTF-16 units)", () => {
    const text = "🚀".repeat(EXCERPT_CHARS);
    const excerpt = excerptOf(readDescription(text).description, "Launch");
    expect(excerpt).toMatch(/^(🚀)+…$/u);
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARS);
  });

  it("is made once per distinct description", () => {
    const html = readDescription(`${"word ".repeat(100)}once`).description;
    expect(excerptOf(html, "T")).toBe(excerptOf(html, "T"));
    expect(Object.is(excerptOf(html, "T"), excerptOf(html, "T"))).toBe(true);
  });
});

describe("listEventOf: an event as the lists carry it", () => {
  it("has what a card shows and the excerpt, never the description", () => {
    const { description } = readDescription("<p>A long evening of talks.</p>");
    const event = {
      id: "x",
      summary: "Talks",
      description,
      location: "NYC",
      start: { date: "2026-03-01" },
      updated: "2026-01-01T00:00:00Z",
    };
    expect(listEventOf(event)).toEqual({
      id: "x",
      summary: "Talks",
      location: "NYC",
      start: { date: "2026-03-01" },
      excerpt: "A long evening of talks.",
    });
    expect(listEventOf({ id: "y" })).toEqual({ id: "y" });
  });
});

import { describe, expect, it } from "vitest";
import { descriptionToHtml, looksLikeHtml, plainTextToHtml, sanitizeDescriptionHtml } from "./sanitize.server";

describe("sanitizeDescriptionHtml: hostile input", () => {
  it.each([
    ["script tag and its text", `Hi<script>alert("x")</script>`, "Hi"],
    ["script with src", `<script src="https://evil.example/x.js"></script>ok`, "ok"],
    ["img onerror", `<img src=x onerror="alert(1)">after`, "after"],
    ["event handler on an allowed tag", `<b onclick="alert(1)">bold</b>`, "<b>bold</b>"],
    [
      "onmouseover on a link",
      `<a href="https://a.example" onmouseover="x()">a</a>`,
      `<a href="https://a.example" rel="noopener noreferrer" target="_blank">a</a>`,
    ],
    ["javascript: link", `<a href="javascript:alert(1)">click</a>`, "<span>click</span>"],
    ["JaVaScRiPt: with entities", `<a href="&#106;avascript:alert(1)">click</a>`, "<span>click</span>"],
    ["javascript: with leading spaces", `<a href="  javascript:alert(1)">click</a>`, "<span>click</span>"],
    ["data: link", `<a href="data:text/html,<script>alert(1)</script>">d</a>`, "<span>d</span>"],
    ["protocol-relative link", `<a href="//evil.example">e</a>`, "<span>e</span>"],
    ["iframe", `<iframe src="https://evil.example"></iframe>text`, "text"],
    ["style tag", `<style>body{display:none}</style>visible`, "visible"],
    ["style attribute", `<p style="position:fixed">p</p>`, "<p>p</p>"],
    ["svg onload", `<svg onload="alert(1)"><circle /></svg>s`, "s"],
    ["form and input", `<form action="https://evil.example"><input name="p"></form>f`, "f"],
    ["object/embed", `<object data="x.swf"></object><embed src="x.swf">o`, "o"],
    [
      "target and rel forced on links",
      `<a href="https://ok.example" target="_self" rel="opener">ok</a>`,
      `<a href="https://ok.example" rel="noopener noreferrer" target="_blank">ok</a>`,
    ],
    ["unclosed markup", `<b>bold`, "<b>bold</b>"],
    ["meta refresh", `<meta http-equiv="refresh" content="0;url=https://evil.example">m`, "m"],
  ])("%s", (_name, input, expected) => {
    expect(sanitizeDescriptionHtml(input)).toBe(expected);
  });

  it("keeps emphasis, lists, line breaks and http(s)/mailto links", () => {
    const input = `<b>Bring</b> <i>a</i> <em>friend</em><br><ul><li>one</li><li>two</li></ul><ol><li>x</li></ol><a href="mailto:hi@example.org">mail</a> <a href="http://example.org/a?b=1&amp;c=2">web</a>`;
    expect(sanitizeDescriptionHtml(input)).toBe(
      `<b>Bring</b> <i>a</i> <em>friend</em><br /><ul><li>one</li><li>two</li></ul><ol><li>x</li></ol>` +
        `<a href="mailto:hi@example.org" rel="noopener noreferrer" target="_blank">mail</a> ` +
        `<a href="http://example.org/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">web</a>`,
    );
  });
});

describe("plain text descriptions", () => {
  it("escapes markup-looking text and keeps line breaks", () => {
    expect(plainTextToHtml("Doors 6 < 7 & \"bring\" 'ID'\nSecond line\r\nThird")).toBe(
      "Doors 6 &lt; 7 &amp; &quot;bring&quot; &#39;ID&#39;<br>Second line<br>Third",
    );
  });

  it.each([
    ["a < b and c > d", false],
    ["Agenda:\n- talk", false],
    ["<b>x</b>", true],
    ["line<br>line", true],
    ["<script>alert(1)</script>", true],
  ])("looksLikeHtml(%j) is %s", (text, expected) => {
    expect(looksLikeHtml(text)).toBe(expected);
  });

  it("descriptionToHtml picks the right path and drops empty results", () => {
    expect(descriptionToHtml("Line one\nLine two")).toBe("Line one<br>Line two");
    expect(descriptionToHtml("<p>Hi</p><script>x</script>")).toBe("<p>Hi</p>");
    expect(descriptionToHtml("<script>only()</script>")).toBeUndefined();
    expect(descriptionToHtml("   ")).toBeUndefined();
    expect(descriptionToHtml(undefined)).toBeUndefined();
  });
});

// An event's description, converted once when the calendar is read into the three forms its
// readers need: safe HTML for the pages, plain text (the .ics, JSON-LD, the Google link, meta
// tags) and the links the organisers put in it (how to join). Text and links are read from the
// sanitized HTML with htmlparser2, the parser sanitize-html itself is built on.
import { Parser } from "htmlparser2";
import type { CalendarEvent, DescriptionLink } from "~/events/model";
import { descriptionToHtml } from "./sanitize.server";

export type DescriptionForms = Pick<CalendarEvent, "description" | "descriptionText" | "descriptionLinks">;

/** Tags (of those the sanitizer keeps) whose start and end both begin a new line. */
const BLOCK = new Set(["p", "div", "ul", "ol"]);

/**
 * Text and links of sanitized HTML: `<br>`, paragraphs and blocks as line breaks, list items as
 * "• " lines, entities decoded, whitespace inside text collapsed as a browser would.
 */
export function readHtml(html: string): { text: string; links: DescriptionLink[] } {
  let out = "";
  const links: DescriptionLink[] = [];
  let link: { href: string; text: string } | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "br" || BLOCK.has(name)) out += "\n";
        else if (name === "li") out += `${out === "" || out.endsWith("\n") ? "" : "\n"}• `;
        else if (name === "a") link = { href: attributes.href ?? "", text: "" };
      },
      ontext(data) {
        const text = data.replace(/[ \t\r\n\f]+/g, " ");
        out += text;
        if (link) link.text += text;
      },
      onclosetag(name) {
        if (BLOCK.has(name) || name === "li") out += "\n";
        else if (name === "a" && link) {
          links.push({ href: link.href, text: link.text.replace(/\u00a0/g, " ").trim() || link.href });
          link = undefined;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  const text = out
    .replace(/\u00a0/g, " ")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n[ \t]+/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { text, links };
}

/** A description from a calendar (HTML or plain text, untrusted) in every form; empty when there is none. */
export function readDescription(raw: string | undefined | null): DescriptionForms {
  const html = descriptionToHtml(raw);
  if (!html) return {};
  const { text, links } = readHtml(html);
  const seen = new Set<string>();
  // The sanitizer keeps only http(s) and mailto links; each address is listed once.
  const unique = links.filter((l) => /^(https?:\/\/|mailto:)/i.test(l.href) && !seen.has(l.href) && seen.add(l.href));
  return {
    description: html,
    ...(text ? { descriptionText: text } : {}),
    ...(unique.length > 0 ? { descriptionLinks: unique } : {}),
  };
}

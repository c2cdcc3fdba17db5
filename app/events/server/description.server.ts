// An event's description: converted when the calendar is read into the one form the calendar copy
// and the API carry (safe HTML), and read on demand, for the few events a page shows, into plain text
// (the .ics, JSON-LD, the Google link, meta tags), the links the organisers put in it (how to join) and
// the short excerpt the lists show (never the description itself). Text and links are read from the sanitized HTML with htmlparser2, the parser
// sanitize-html itself is built on.
import { Parser } from "htmlparser2";
import { LRUCache } from "lru-cache";
import { eventTitle } from "~/events/classify";
import type { CalendarEvent, DescriptionLink, ListEvent } from "~/events/model";
import { summaryOf } from "~/events/summary";
import { descriptionToHtml } from "./sanitize.server";

export type DescriptionForms = Pick<CalendarEvent, "description">;

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

/** The sanitized HTML of each distinct description text a calendar sent, so a read converts only what is new. */
const converted = new LRUCache<string, { html: string }>({
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (value, raw) => raw.length + value.html.length + 64,
});

/**
 * A description from a calendar (HTML or plain text, untrusted) as the safe HTML the site stores and
 * serves; empty when there is none. Each distinct text is converted once however many occurrences
 * of a series carry it, and again only after the calendar worker that holds the cache has ended (idle).
 */
export function readDescription(raw: string | undefined | null): DescriptionForms {
  if (!raw) return {};
  let entry = converted.get(raw);
  if (!entry) {
    entry = { html: descriptionToHtml(raw) ?? "" };
    converted.set(raw, entry);
  }
  return entry.html ? { description: entry.html } : {};
}

export type DescriptionText = Pick<CalendarEvent, "descriptionText" | "descriptionLinks">;

const read = new LRUCache<string, DescriptionText>({ max: 2_000 });

/** The plain text (the .ics, JSON-LD, the Google link, meta tags) and the links (how to join) of a stored description. */
export function descriptionTextOf(html: string | undefined): DescriptionText {
  if (!html) return {};
  let forms = read.get(html);
  if (!forms) {
    const { text, links } = readHtml(html);
    const seen = new Set<string>();
    // The sanitizer keeps only http(s) and mailto links; each address is listed once.
    const unique = links.filter((l) => /^(https?:\/\/|mailto:)/i.test(l.href) && !seen.has(l.href) && seen.add(l.href));
    forms = { ...(text ? { descriptionText: text } : {}), ...(unique.length > 0 ? { descriptionLinks: unique } : {}) };
    read.set(html, forms);
  }
  return forms;
}

/** An event as a page shows it: with its description's text and links beside the HTML. */
export function withDescriptionText<T extends CalendarEvent>(event: T): T {
  return event.description ? { ...event, ...descriptionTextOf(event.description) } : event;
}

/** The excerpt's length at most: about three lines of a card at 1280 px (the card clamps it to three lines whatever the script). */
export const EXCERPT_CHARS = 200;

/** The last excerpt made of each distinct description, with the title it was made for. */
const excerpts = new LRUCache<string, { title: string; excerpt: string }>({ max: 25_000 });

/**
 * A list card's excerpt of a stored description: its plain text on one line, cut at a word with an
 * ellipsis, without a first line that only repeats the title (Google's editor often starts with it
 * in bold). Made once per distinct description (a series' occurrences share theirs); empty when there
 * is no text.
 */
export function excerptOf(html: string | undefined, title: string): string {
  if (!html) return "";
  const known = excerpts.get(html);
  if (known?.title === title) return known.excerpt;
  const lines = readHtml(html)
    .text.split("\n")
    .map((line) => line.trim())
    // An empty list item reads as a lone bullet.
    .filter((line) => line !== "" && line !== "•");
  if (lines[0]?.toLowerCase() === title.trim().toLowerCase()) lines.shift();
  const excerpt = summaryOf(lines.join(" "), EXCERPT_CHARS);
  excerpts.set(html, { title, excerpt });
  return excerpt;
}

/** An event as the lists carry it: what a card shows, the excerpt in place of the description. */
export function listEventOf(event: CalendarEvent): ListEvent {
  const { id, summary, location, start, end } = event;
  const excerpt = excerptOf(event.description, eventTitle(event));
  return {
    id,
    ...(summary === undefined ? {} : { summary }),
    ...(location === undefined ? {} : { location }),
    ...(start === undefined ? {} : { start }),
    ...(end === undefined ? {} : { end }),
    ...(excerpt ? { excerpt } : {}),
  };
}

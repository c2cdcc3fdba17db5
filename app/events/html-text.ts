// The one way an event's description HTML becomes plain text: the .ics DESCRIPTION, the
// Google Calendar link's details, schema.org `description` and the share card all read it here,
// so a line break or a list item is a new line everywhere. Browser-safe (no server imports).

/** Tags whose start and end both begin a new line. */
const BLOCK = new Set(["p", "div", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "tr"]);
/** Elements whose text is never text a reader saw. */
const DROPPED = new Set(["script", "style", "template", "noscript", "textarea", "title"]);

// A tag (attribute values may hold ">" inside quotes), a comment, or a run of text.
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+|</g;

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/**
 * Text of a description's HTML: tags dropped, `<br>`, paragraphs and blocks as line breaks, list
 * items as "• " lines, entities decoded, whitespace inside text collapsed as a browser would.
 * Never rendered as HTML: for text contexts only (iCalendar, URLs, JSON-LD, meta tags, images).
 */
export function htmlToText(html: string | undefined | null): string {
  if (!html) return "";
  let out = "";
  let dropping: string | undefined;
  for (const match of html.matchAll(TOKEN)) {
    const [token, closing, rawName] = match;
    if (rawName === undefined) {
      if (dropping || token.startsWith("<!--")) continue;
      out += decodeEntities(token.replace(/[ \t\r\n\f]+/g, " "));
      continue;
    }
    const name = rawName.toLowerCase();
    if (dropping) {
      if (closing && name === dropping) dropping = undefined;
      continue;
    }
    if (DROPPED.has(name)) {
      if (!closing && !/\/\s*$/.test(match[3] ?? "")) dropping = name;
      continue;
    }
    if (name === "br") out += "\n";
    else if (BLOCK.has(name)) out += "\n";
    else if (name === "li") out += closing ? "\n" : `${out === "" || out.endsWith("\n") ? "" : "\n"}• `;
  }
  return out
    .replace(/\u00a0/g, " ")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n[ \t]+/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The first `max` characters of a text on one line, cut at a word, for meta descriptions and cards. */
export function summaryOf(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, "")}…`;
}

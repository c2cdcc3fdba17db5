// Event descriptions come from calendar owners and feeds: untrusted. What reaches the page is
// sanitized here, on the server, so the browser can render it as HTML.
import sanitizeHtml from "sanitize-html";

const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

const options: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "div", "span", "b", "strong", "i", "em", "u", "ul", "ol", "li", "a"],
  allowedAttributes: { a: ["href", "rel", "target"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  // Text inside <script>, <style> and friends is dropped with the tag; other unknown tags keep their text.
  disallowedTagsMode: "discard",
  transformTags: {
    a: (_tagName, attribs): sanitizeHtml.Tag => {
      const href = (attribs.href ?? "").trim();
      // Only absolute http(s) and mailto links survive; anything else keeps its text, not its link.
      if (!SAFE_HREF.test(href)) return { tagName: "span", attribs: {} };
      return { tagName: "a", attribs: { href, rel: "noopener noreferrer", target: "_blank" } };
    },
  },
};

const HTML_TAG = /<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>/i;

/** True when a description is HTML (Google Calendar, some feeds) rather than plain text. */
export function looksLikeHtml(text: string): boolean {
  return HTML_TAG.test(text);
}

export function sanitizeDescriptionHtml(html: string): string {
  return sanitizeHtml(html, options).trim();
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Plain text as HTML: escaped, line breaks kept as <br>. */
export function plainTextToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .trim()
    .replace(/[&<>"']/g, (c) => ESCAPES[c]!)
    .replace(/\n/g, "<br>");
}

/** Any description, HTML or plain text, as safe HTML; undefined when there is nothing to show. */
export function descriptionToHtml(description: string | undefined | null): string | undefined {
  if (!description || !description.trim()) return undefined;
  const html = looksLikeHtml(description) ? sanitizeDescriptionHtml(description) : plainTextToHtml(description);
  return html || undefined;
}

// How to join an Open event, from what the event itself provides (its location and the links in
// its description): the page says only what the calendar says, never an RSVP nobody will answer.
import type { CalendarEvent } from "./model";
import { htmlToText } from "./html-text";

export type JoinDetails = {
  /** The location is a link to join online. */
  joinUrl?: string;
  /** The location says online without a link ("Online (link sent after RSVP)"). */
  onlineNote?: string;
  /** A place to go to. */
  place?: string;
  /** Links the organisers put in the description (sanitized: http(s) and mailto only). */
  links: Array<{ href: string; text: string }>;
};

const LINK = /<a\s[^>]*?href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi;

/** Reads the join details of an event whose description is sanitized HTML. */
export function joinDetails(event: CalendarEvent): JoinDetails {
  const details: JoinDetails = { links: [] };
  const location = event.location?.trim();
  if (location) {
    if (/^https?:\/\//i.test(location)) details.joinUrl = location;
    else if (/^(online|virtual)\b/i.test(location)) details.onlineNote = location;
    else details.place = location;
  }
  const seen = new Set<string>();
  for (const [, rawHref = "", inner = ""] of (event.description ?? "").matchAll(LINK)) {
    // The sanitizer writes attribute values with entities; the text decodes them the one shared way.
    const href = htmlToText(rawHref);
    if (!/^(https?:\/\/|mailto:)/i.test(href) || seen.has(href) || href === details.joinUrl) continue;
    seen.add(href);
    details.links.push({ href, text: htmlToText(inner) || href });
  }
  return details;
}

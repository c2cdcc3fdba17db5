// What an event's share card says, as plain data: worked out where the events are (the server's
// process) and drawn where the fonts are (share-image.server.tsx, in the drawing worker). The same
// data is the same card, so the data is also the card's cache key.
import { badgeLabel, eventTitle, eventType } from "~/events/classify";
import { formatEventDate } from "~/events/format-date";
import type { CalendarEvent } from "~/events/model";

export type ShareCardSite = { name: string; shortName: string; host: string };

export type ShareCard = {
  title: string;
  badge: string;
  members: boolean;
  when: string;
  /** The event's place, or what the card says instead. */
  where: string;
  site: ShareCardSite;
};

/** Titles past this many characters are cut before layout; the card clamps to three lines anyway. */
const MAX_TITLE = 240;
const MAX_WHERE = 160;

function cut(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}

export function shareCardOf(event: CalendarEvent, site: ShareCardSite): ShareCard {
  const title = eventTitle(event);
  const type = eventType(title);
  return {
    title: cut(title, MAX_TITLE),
    badge: badgeLabel[type],
    members: type === "members-only",
    when: formatEventDate(event.start, event.end),
    where: event.location ? cut(event.location, MAX_WHERE) : "Member Events",
    site,
  };
}

/** The card's identity: two events that read the same share one drawing. */
export function shareCardKey(card: ShareCard): string {
  return JSON.stringify([card.title, card.badge, card.members, card.when, card.where, card.site.name, card.site.shortName, card.site.host]);
}

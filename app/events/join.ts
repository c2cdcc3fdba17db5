// How to join an Open event, from what the event itself provides (its location and the links in
// its description): the page says only what the calendar says, never an RSVP nobody will answer.
import type { CalendarEvent, DescriptionLink } from "./model";

export type JoinDetails = {
  /** The location is a link to join online. */
  joinUrl?: string;
  /** The location says online without a link ("Online (link sent after RSVP)"). */
  onlineNote?: string;
  /** A place to go to. */
  place?: string;
  /** Links the organisers put in the description (sanitized: http(s) and mailto only). */
  links: DescriptionLink[];
};

/** The join details of an event: its location, and its description's links other than that location. */
export function joinDetails(event: CalendarEvent): JoinDetails {
  const details: JoinDetails = { links: [] };
  const location = event.location?.trim();
  if (location) {
    if (/^https?:\/\//i.test(location)) details.joinUrl = location;
    else if (/^(online|virtual)\b/i.test(location)) details.onlineNote = location;
    else details.place = location;
  }
  details.links = (event.descriptionLinks ?? []).filter((link) => link.href !== details.joinUrl);
  return details;
}

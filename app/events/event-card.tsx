import { PageLink } from "~/components/page-link";
import { eventTitle, eventType } from "./classify";
import { formatEventDate, machineDate } from "./format-date";
import { eventPagePath } from "./links";
import type { ListEvent } from "./model";
import { TypeBadge } from "./type-badge";

// The card a list shows on tablets and laptops (phones get the compact list): title, type, when, where and
// a short excerpt made on the server, the whole card a link to the event's page, which has the rest. Its
// parts clamp (title three lines, date two, place one, excerpt three): no description makes it taller than
// about 300 px. The look lives in app.css (.event-card): a page of fifty cards repeats no class list. The
// lists' links are not announced to React Router's route discovery: a page of a hundred would ask for a
// manifest by an address longer than the server answers (414); one link's route is found when it is followed.

/** The pin the cards draw (lucide's map-pin), defined once in the page: each card only refers to it. */
export function EventCardIcons() {
  return (
    <svg aria-hidden="true" className="hidden">
      <symbol
        id="event-pin"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993 4 10a8 8 0 0 1 16 0" />
        <circle cx="12" cy="10" r="3" />
      </symbol>
    </svg>
  );
}

export function EventCard({ event }: { event: ListEvent }) {
  const title = eventTitle(event);
  const machine = machineDate(event.start);
  const when = formatEventDate(event.start, event.end);
  const titleId = `event-${event.id}`;
  return (
    <article aria-labelledby={titleId} className="event-card">
      <h3 id={titleId}>
        <PageLink to={eventPagePath(event.id)} discover="none">
          {title}
        </PageLink>
      </h3>
      <p className="event-card-when">
        <TypeBadge type={eventType(title)} />
        {machine ? <time dateTime={machine}>{when}</time> : <span>{when}</span>}
      </p>
      {event.location ? (
        <p className="event-card-where">
          <svg aria-hidden="true">
            <use href="#event-pin" />
          </svg>
          <span>{event.location}</span>
        </p>
      ) : null}
      {event.excerpt ? <p className="event-card-excerpt">{event.excerpt}</p> : null}
    </article>
  );
}

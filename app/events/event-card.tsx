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
          <span>{event.location}</span>
        </p>
      ) : null}
      {event.excerpt ? <p className="event-card-excerpt">{event.excerpt}</p> : null}
    </article>
  );
}

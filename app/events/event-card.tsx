import { CalendarPlus, Download, MapPin } from "lucide-react";
import { PageLink } from "~/components/page-link";
import { newTab } from "~/lib/external";
import { eventTitle, eventType } from "./classify";
import { formatEventDate, machineDate } from "./format-date";
import { googleCalendarUrl, eventIcsPath, eventPagePath, mapSearchUrl } from "./links";
import type { CalendarEvent } from "./model";
import { TypeBadge } from "./type-badge";

const actionClass =
  "inline-flex items-center gap-1.5 rounded-full border border-ink/20 px-3.5 py-1.5 text-sm font-medium text-ink hover:border-ink hover:bg-sand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-dark";

export function EventCard({ event }: { event: CalendarEvent }) {
  const title = eventTitle(event);
  const type = eventType(title);
  const when = machineDate(event.start);
  const googleUrl = googleCalendarUrl(event, title);
  const titleId = `event-${event.id}`;

  return (
    <article aria-labelledby={titleId} className="flex h-full flex-col gap-4 rounded-2xl border border-ink/10 bg-white p-6 sm:p-7">
      {/* The badge always sits under the title: beside it, a long title pushed it down on one card
          and not the next. */}
      <div className="flex flex-col items-start gap-2">
        <h3 id={titleId} className="font-serif text-xl leading-snug font-semibold wrap-anywhere text-ink sm:text-2xl">
          <PageLink to={eventPagePath(event.id)} className="rounded underline-offset-4 hover:underline">
            {title}
          </PageLink>
        </h3>
        <TypeBadge type={type} className="shrink-0" />
      </div>
      <dl className="flex flex-col gap-2 text-[0.9375rem] text-ink-soft">
        <div>
          <dt className="sr-only">When</dt>
          <dd className="font-medium text-ink">
            {when ? <time dateTime={when}>{formatEventDate(event.start, event.end)}</time> : formatEventDate(event.start, event.end)}
          </dd>
        </div>
        {event.location ? <WhereItem location={event.location} /> : null}
      </dl>
      {event.description ? (
        // Sanitized on the server against an allow-list (app/events/server); never raw calendar HTML.
        // wrap-anywhere: a long address or URL in it breaks instead of widening the card past a phone's edge.
        <div
          className="event-description text-[0.9375rem] leading-relaxed wrap-anywhere text-ink-soft"
          dangerouslySetInnerHTML={{ __html: event.description }}
        />
      ) : null}
      <div className="mt-auto flex flex-wrap gap-2 pt-1">
        <a href={eventIcsPath(event.id)} download className={actionClass}>
          <Download aria-hidden="true" className="size-4" />
          Add to calendar (.ics)
          <span className="sr-only">: {title}</span>
        </a>
        {googleUrl ? (
          <a href={googleUrl} {...newTab} className={actionClass}>
            <CalendarPlus aria-hidden="true" className="size-4" />
            Google Calendar
            <span className="sr-only">: add {title} (opens in a new tab)</span>
          </a>
        ) : null}
      </div>
    </article>
  );
}

const locationLinkClass = "underline decoration-ink/30 underline-offset-4 hover:decoration-ink";

/** A place links to a map search, a URL to itself; "Online …" has nowhere to point. */
/** The "Where" group of an event's details list, with its pin and map link. */
export function WhereItem({ location }: { location: string }) {
  return (
    <div>
      <dt className="sr-only">Where</dt>
      {/* The pin goes inside the dd: a dl's groups may hold only dt and dd. */}
      <dd className="flex min-w-0 items-start gap-1.5">
        <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brass-dark" />
        <span className="min-w-0 wrap-anywhere">
          <Location value={location} />
        </span>
      </dd>
    </div>
  );
}

export function Location({ value }: { value: string }) {
  if (/^https?:\/\//i.test(value)) {
    return (
      <a href={value} {...newTab} className={`${locationLinkClass} break-all`}>
        {value}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    );
  }
  if (/^(online|virtual)\b/i.test(value)) return <>{value}</>;
  return (
    <a href={mapSearchUrl(value)} {...newTab} className={locationLinkClass}>
      {value}
      <span className="sr-only"> (map, opens in a new tab)</span>
    </a>
  );
}

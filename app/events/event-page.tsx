import { ArrowLeft, CalendarPlus, Download, History, LogIn } from "lucide-react";
import { buttonStyles } from "~/components/button-styles";
import { PageLink } from "~/components/page-link";
import { newTab } from "~/lib/external";
import { eventTitle, eventType } from "./classify";
import { WhereItem } from "./where-item";
import { formatEventDate, machineDate } from "./format-date";
import { joinDetails } from "./join";
import { eventIcsPath, eventPagePath, googleCalendarUrl, mapSearchUrl } from "./links";
import type { CalendarEvent } from "./model";
import { ShareLink } from "./share-link";
import { StaleNote } from "./stale-note";
import { tabSearch } from "./tab";
import { TypeBadge } from "./type-badge";

export type EventPageData = {
  event: CalendarEvent;
  /** The event has ended: it is listed under Past. */
  past: boolean;
  /** The calendar could not be read just now; this is the copy of `updatedAt`. */
  stale: boolean;
  updatedAt?: string;
};

type Links = { pageUrl: string; loginUrl: string };

const actionClass = buttonStyles.outline;
const textLinkClass = "font-semibold text-ink underline decoration-ink/30 underline-offset-4 hover:decoration-ink";

/** One event's page: what it is, when and where, and what a visitor can do about it. */
export function EventPage({ data, links }: { data: EventPageData; links: Links }) {
  const { event, past, stale, updatedAt } = data;
  const title = eventTitle(event);
  const type = eventType(title);
  const when = formatEventDate(event.start, event.end);
  const machine = machineDate(event.start);
  const listPath = `/events${tabSearch(past ? "past" : "upcoming")}`;

  return (
    <article aria-labelledby="event-title" className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-10 sm:px-6 sm:py-14">
      <PageLink
        to={listPath}
        className="inline-flex items-center gap-1.5 self-start rounded text-sm font-semibold text-ink-soft hover:text-ink"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {past ? "Past events" : "Upcoming events"}
      </PageLink>

      {stale && updatedAt ? <StaleNote what="this event" updatedAt={updatedAt} /> : null}

      {past ? (
        <div className="flex gap-3 rounded-xl border border-ink/15 bg-sand/60 px-4 py-3 text-ink">
          <History aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <p>
            This event took place on {machine ? <time dateTime={machine}>{when}</time> : when}.{" "}
            <a href="/events" className={textLinkClass}>
              See the upcoming events
            </a>
          </p>
        </div>
      ) : null}

      <header className="flex flex-col gap-4">
        <TypeBadge type={type} className="self-start" />
        <h1 id="event-title" className="font-serif text-3xl leading-tight font-semibold tracking-tight wrap-anywhere text-ink sm:text-5xl">
          {title}
        </h1>
        <dl className="flex flex-col gap-2 text-base text-ink-soft sm:text-lg">
          <div>
            <dt className="sr-only">When</dt>
            <dd className="font-medium text-ink">{machine ? <time dateTime={machine}>{when}</time> : when}</dd>
          </div>
          {event.location ? <WhereItem location={event.location} /> : null}
        </dl>
      </header>

      <div className="flex flex-wrap gap-3">
        {!past && type === "members-only" ? (
          <a href={links.loginUrl} {...newTab} className={buttonStyles.primary}>
            <LogIn aria-hidden="true" className="size-4" />
            RSVP in the member portal
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : null}
        {!past ? <CalendarActions event={event} title={title} /> : null}
        <ShareLink path={eventPagePath(event.id)} url={links.pageUrl} title={title} className={actionClass} />
      </div>

      {event.description ? (
        <section aria-labelledby="event-about" className="flex flex-col gap-3">
          <h2 id="event-about" className="font-serif text-2xl font-semibold text-ink">
            About this event
          </h2>
          {/* Sanitized on the server against an allow-list (app/events/server); never raw calendar HTML. */}
          <div
            className="event-description leading-relaxed wrap-anywhere text-ink-soft"
            dangerouslySetInnerHTML={{ __html: event.description }}
          />
        </section>
      ) : null}

      {!past && type === "open" ? <HowToJoin event={event} /> : null}
    </article>
  );
}

function CalendarActions({ event, title }: { event: CalendarEvent; title: string }) {
  const googleUrl = googleCalendarUrl(event, title);
  return (
    <>
      <a href={eventIcsPath(event.id)} download className={actionClass}>
        <Download aria-hidden="true" className="size-4" />
        Add to calendar (.ics)
      </a>
      {googleUrl ? (
        <a href={googleUrl} {...newTab} className={actionClass}>
          <CalendarPlus aria-hidden="true" className="size-4" />
          Google Calendar
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : null}
    </>
  );
}

/** An Open event: how to take part, in the event's own words and links. */
function HowToJoin({ event }: { event: CalendarEvent }) {
  const { joinUrl, onlineNote, place, links } = joinDetails(event);
  return (
    <section aria-labelledby="event-join" className="flex flex-col gap-3 rounded-2xl border border-ink/10 bg-white p-6">
      <h2 id="event-join" className="font-serif text-2xl font-semibold text-ink">
        How to join
      </h2>
      <p className="text-ink-soft">Open events are not limited to members. What the calendar says about taking part:</p>
      {/* wrap-anywhere: a place, URL or note that is one long word breaks instead of widening the page. */}
      <ul className="flex list-disc flex-col gap-2 pl-5 wrap-anywhere text-ink-soft">
        {joinUrl ? (
          <li>
            It takes place online:{" "}
            <a href={joinUrl} {...newTab} className={`${textLinkClass} break-all`}>
              {joinUrl}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ) : null}
        {onlineNote ? <li>It takes place online; the calendar says: “{onlineNote}”.</li> : null}
        {place ? (
          <li>
            Come to{" "}
            <a href={mapSearchUrl(place)} {...newTab} className={textLinkClass}>
              {place}
              <span className="sr-only"> (map, opens in a new tab)</span>
            </a>
            .
          </li>
        ) : null}
        {links.map((link) => (
          <li key={link.href}>
            The organisers link to{" "}
            <a href={link.href} {...newTab} className={textLinkClass}>
              {link.text}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
            .
          </li>
        ))}
        {!joinUrl && !onlineNote && !place && links.length === 0 ? (
          <li>The calendar does not say where or how to sign up yet: check this page again closer to the day.</li>
        ) : null}
      </ul>
    </section>
  );
}

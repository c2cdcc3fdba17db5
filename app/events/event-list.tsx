import { AlertCircle, ArrowRight, CalendarX } from "lucide-react";
import { PageLink } from "~/components/page-link";
import { Spinner } from "~/components/spinner";
import { CompactEventList } from "./compact-event-list";
import { EventCard } from "./event-card";
import type { EventsView } from "./filter";
import type { ListEvent } from "./model";
import { StaleNote } from "./stale-note";
import { tabSearch, type EventsTab } from "./tab";

/** A list as the pages carry it: the events a card shows, and where the list goes on (an archive page), if it does. */
export type ListView = EventsView<ListEvent> & { more?: { path: string; label: string } };

export type EventListState =
  | { status: "loading" }
  | { status: "error" }
  /** The tab's events as `eventsView` picked them (app/events/filter.ts). */
  | { status: "ready"; view: ListView };

const emptyText: Record<EventsTab, string> = {
  upcoming: "No upcoming events scheduled at this time.",
  past: "No past events to show yet.",
};

const moreText: Record<EventsTab, string> = { upcoming: "More upcoming events", past: "Earlier events" };

/** The list in its four states (spec §4, §8): loading, error, empty, populated. */
export function EventList({ state, tab }: { state: EventListState; tab: EventsTab }) {
  if (state.status === "loading") {
    const again = `/events${tabSearch(tab)}`;
    // data-start-scripts: a page served loading starts its scripts at once (lib/deferred-scripts.ts),
    // so the list replaces the spinner without waiting for the visitor to interact.
    return (
      <div data-start-scripts="">
        <Spinner label="Loading events..." />
        <noscript>
          <p className="text-ink-soft">
            The calendar is taking longer than usual.{" "}
            <a href={again} className="font-semibold text-ink underline underline-offset-4">
              Reload the page
            </a>{" "}
            in a moment to see the events.
          </p>
        </noscript>
      </div>
    );
  }

  if (state.status === "error") {
    return (
      <div role="alert" className="flex gap-3 rounded-2xl border border-red-800/20 bg-red-50 p-6 text-red-950">
        <AlertCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <div>
          <p className="font-semibold">Failed to load events from calendar.</p>
          <p className="mt-1">Please check back later or contact support if the issue persists.</p>
        </div>
      </div>
    );
  }

  const { events, stale, updatedAt, more } = state.view;
  return (
    <div className="flex flex-col gap-5">
      {stale && updatedAt ? <StaleNote what="events" updatedAt={updatedAt} /> : null}
      {events.length === 0 ? (
        <div className="flex items-center gap-3 rounded-2xl border border-dashed border-ink/20 p-8 text-ink-soft">
          <CalendarX aria-hidden="true" className="size-5 shrink-0" />
          <p>{emptyText[tab]}</p>
        </div>
      ) : (
        <EventItems events={events} />
      )}
      {more ? (
        <PageLink
          to={more.path}
          className="inline-flex items-center gap-1.5 self-start rounded text-sm font-semibold text-ink underline underline-offset-4 hover:text-brass-dark"
        >
          {`${moreText[tab]}: ${more.label}`}
          <ArrowRight aria-hidden="true" className="size-4" />
        </PageLink>
      ) : null}
    </div>
  );
}

/** A list's events: the compact list on phones (the details are on each event's page), cards from 640 px. */
export function EventItems({ events }: { events: readonly ListEvent[] }) {
  return (
    <>
      <CompactEventList events={events} className="sm:hidden" />
      <ul className="event-cards hidden grid-cols-1 gap-5 sm:grid lg:grid-cols-2">
        {events.map((event) => (
          <li key={event.id}>
            <EventCard event={event} />
          </li>
        ))}
      </ul>
    </>
  );
}

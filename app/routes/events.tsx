import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Rss } from "lucide-react";
import { PageHeader } from "~/components/page-header";
import { usePublicConfig } from "~/components/use-public-config";
import { events as page, site } from "~/content";
import { CalendarEmbed } from "~/events/calendar-embed";
import { EventList, type EventListState } from "~/events/event-list";
import { EventTabs } from "~/events/event-tabs";
import { eventsView } from "~/events/filter";
import { eventJsonLd } from "~/events/json-ld";
import type { EventsResponse } from "~/events/model";
import { withDescriptionText } from "~/events/server/description.server";
import { readEventsOutcome } from "~/events/server/outcome.server";
import { listLimit, parseTab } from "~/events/tab";
import { newTab } from "~/lib/external";
import { jsonLdScript } from "~/lib/json-ld";
import { getQueryClient } from "~/lib/query-client";
import { pageMeta } from "~/lib/seo";
import { EVENTS_PAGE_WAIT_MS } from "~/site-routes";
import type { Route } from "./+types/events";

// The spec §7 read: GET /api/calendar/events through the default query function.
const EVENTS_QUERY_KEY = ["/api/calendar/events"];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Member Events",
    description: page.description,
    path: "/events",
    matches,
  });

// Document requests: the events are in the HTML (readable without JavaScript, indexable). A first
// read of the calendar that takes over a second is not waited for: the page goes out in its loading
// state, its scripts start at once, and the list follows from the API.
export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const outcome = await readEventsOutcome(context, EVENTS_PAGE_WAIT_MS);
  // With events, the split's own instant rather than the clock: the same bytes on every server.
  const view = { tab: parseTab(search), limit: listLimit(search), now: outcome.ok ? outcome.splitAt : Date.now() };
  // The document carries the events it shows, not the calendar's whole window: its size stays
  // flat however many events the calendar holds. The loading and error states: the answer store
  // lets no browser or CDN keep them as the page for /events.
  if (outcome.ok) {
    const list = eventsView(outcome.response, view.tab, view.now, view.limit);
    // The calendar copy carries each description as HTML only; the cards' links want its text too.
    return { ...view, list: { ...list, events: list.events.map(withDescriptionText) }, failed: false };
  }
  return { ...view, list: null, failed: !outcome.loading };
}

// In-app navigation: show the page at once and fetch the list from the API (spec §4 loading state).
export function clientLoader({ request }: Route.ClientLoaderArgs) {
  const search = new URL(request.url).searchParams;
  return { tab: parseTab(search), limit: listLimit(search), now: Date.now(), list: null, failed: false };
}

// Only this page reads through TanStack Query, so only this page loads it.
export default function EventsPage({ loaderData }: Route.ComponentProps) {
  const [client] = useState(getQueryClient);
  return (
    <QueryClientProvider client={client}>
      <Events loaderData={loaderData} />
    </QueryClientProvider>
  );
}

function Events({ loaderData }: Pick<Route.ComponentProps, "loaderData">) {
  const { tab, limit, now, list, failed } = loaderData;
  const { siteUrl, calendar } = usePublicConfig();
  const query = useQuery<EventsResponse>({
    queryKey: EVENTS_QUERY_KEY,
    // The document's events are its view only, so they never stand in for the whole list: the
    // API is read when there are none (in-app navigation, a page served loading). A server-side
    // failure is shown as rendered; a later visit tries again.
    enabled: !failed && list === null,
  });
  const shown = list ?? (query.data ? eventsView(query.data, tab, now, limit) : null);

  const state: EventListState = shown
    ? { status: "ready", view: shown }
    : failed || query.isError
      ? { status: "error" }
      : { status: "loading" };
  // Structured data for the upcoming events a visitor can see on the page.
  const upcoming = shown && tab === "upcoming" ? shown.events : [];

  return (
    <>
      <PageHeader eyebrow="Calendar" title="Member Events" lead={page.lead} />
      <div className="mx-auto flex max-w-6xl flex-col gap-14 px-4 py-14 sm:px-6">
        <section aria-labelledby="events-list-heading" className="flex flex-col gap-6">
          <div className="flex flex-wrap items-center justify-between gap-4">
            <h2 id="events-list-heading" className="font-serif text-3xl font-semibold tracking-tight text-ink">
              {tab === "past" ? "Past events" : "Upcoming events"}
            </h2>
            <EventTabs active={tab} />
          </div>
          <EventList state={state} tab={tab} />
          {shown?.subscribeUrl ? (
            <a
              href={shown.subscribeUrl}
              {...newTab}
              className="inline-flex items-center gap-2 self-start rounded text-sm font-semibold text-brass-dark underline-offset-4 hover:underline"
            >
              <Rss aria-hidden="true" className="size-4" />
              Subscribe to the calendar
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          ) : null}
        </section>
        <section aria-labelledby="calendar-heading" className="flex flex-col gap-4">
          <h2 id="calendar-heading" className="font-serif text-2xl font-semibold text-ink">
            Shared calendar
          </h2>
          <CalendarEmbed calendar={calendar} subscribeUrl={shown?.subscribeUrl} />
        </section>
      </div>
      {upcoming.length > 0 ? (
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{ __html: jsonLdScript(eventJsonLd(upcoming, { name: site.name, url: siteUrl })) }}
        />
      ) : null}
    </>
  );
}

import { memo, Suspense, useEffect, useMemo } from "react";
import { Await, useRevalidator, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { Rss } from "lucide-react";
import { usePublicConfig } from "~/components/use-public-config";
import { events as page, site } from "~/content";
import { CalendarEmbed } from "~/events/calendar-embed";
import { archiveOf, pagePathOf, type ArchiveMonth } from "~/events/archive";
import { EventList, type EventListState, type ListView } from "~/events/event-list";
import { EventTabs } from "~/events/event-tabs";
import { eventsView } from "~/events/filter";
import { eventJsonLd } from "~/events/json-ld";
import { MonthNav } from "~/events/month-nav";
import { monthKeyOf, monthLabel } from "~/events/month-groups";
import { listEventOf } from "~/events/server/description.server";
import { readEventsOutcome } from "~/events/server/outcome.server";
import { FIRST_VIEW, parseTab, TABS, type EventsTab } from "~/events/tab";
import { newTab } from "~/lib/external";
import { jsonLdScript } from "~/lib/json-ld";
import { pageMeta } from "~/lib/seo";
import { EventsHeader } from "~/pages/events-header";
import { EVENTS_PAGE_WAIT_MS } from "~/site-routes";
import type { Route } from "./+types/events";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Member Events",
    description: page.description,
    path: "/events",
    matches,
  });

/** What the page shows: both tabs' first views and the archive's months (null while the calendar's first read goes on, or when it failed). */
type EventsData = { views: Record<EventsTab, ListView> | null; months: readonly ArchiveMonth[]; failed: boolean };

// The events are in the HTML (readable without JavaScript, indexable): the first view of both tabs, as
// cards with a short excerpt (the whole text is on each event's page), each list followed by a link to
// where it goes on, and the list of months: every event is on an archive page (app/events/archive.ts) a
// click or two from here. Its size stays flat however many events the calendar holds, and a tab switch
// needs nothing from the network. A first read of the calendar that takes over a second is not waited
// for: the page goes out in its loading state, its scripts start at once, and the list follows from
// this loader. The loading and error states: the answer store lets no browser or CDN keep them as the
// page for /events.
export async function loader({ context }: Route.LoaderArgs): Promise<EventsData> {
  const outcome = await readEventsOutcome(context, EVENTS_PAGE_WAIT_MS);
  if (!outcome.ok) return { views: null, months: [], failed: !outcome.loading };
  const archive = archiveOf(outcome.response.events);
  // The split's own instant rather than the clock: the same bytes on every server.
  const view = (tab: EventsTab): ListView => {
    const { events, ...rest } = eventsView(outcome.response, tab, outcome.splitAt, FIRST_VIEW + 1);
    // Where the list goes on: the archive page of the first event it does not show.
    const next = events[FIRST_VIEW];
    const more = next && { path: pagePathOf(archive, next), label: monthLabel(monthKeyOf(next)) ?? "" };
    return { ...rest, events: events.slice(0, FIRST_VIEW).map(listEventOf), ...(more ? { more } : {}) };
  };
  return { views: { upcoming: view("upcoming"), past: view("past") }, months: archive.months, failed: false };
}

// In-app navigation to /events (browsers without speculation rules) and a page served loading: the
// page shows at once in its loading state, and the list follows from the loader.
export function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const pending = serverLoader();
  // A failure is shown by <Await>'s error state; it is not an unhandled rejection meanwhile.
  pending.catch(() => {});
  return { pending };
}

// A tab switch shows views the page already has: neither this loader nor the root's runs again.
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  return currentUrl.pathname !== nextUrl.pathname;
}

export default function EventsPage({ loaderData }: Route.ComponentProps) {
  if (!("pending" in loaderData)) return <Events data={loaderData} />;
  return (
    <Suspense fallback={<Events data={null} />}>
      <Await resolve={loaderData.pending} errorElement={<Events data={{ views: null, months: [], failed: true }} />}>
        {(data: EventsData) => <Events data={data} />}
      </Await>
    </Suspense>
  );
}

/** The page; `data` null while its list is on the way. */
function Events({ data }: { data: EventsData | null }) {
  const [search] = useSearchParams();
  const active = parseTab(search);
  const { siteUrl, calendar } = usePublicConfig();
  const views = data?.views;
  const revalidator = useRevalidator();
  const loading = data !== null && views === null && !data.failed;
  // A page served while the calendar's first read went on asks again until it has the list.
  useEffect(() => {
    if (loading) void revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer, not per revalidator state
  }, [data]);
  const subscribeUrl = views?.upcoming.subscribeUrl;
  // Structured data for the upcoming events a visitor can see on the page.
  const upcoming = views?.upcoming.events ?? [];

  return (
    <>
      <EventsHeader events={page} />
      <div className="mx-auto flex max-w-6xl flex-col gap-14 px-4 py-14 sm:px-6">
        <section aria-labelledby="events-list-heading" className="relative flex flex-col gap-6">
          <div className="flex flex-wrap items-center justify-between gap-4">
            <h2 id="events-list-heading" className="font-serif text-3xl font-semibold tracking-tight text-ink">
              <span data-tab-panel="upcoming" hidden={active !== "upcoming"}>
                Upcoming events
              </span>
              <span data-tab-panel="past" hidden={active !== "past"}>
                Past events
              </span>
            </h2>
            <EventTabs active={active} />
          </div>
          {views ? (
            TABS.map((tab) => (
              <div key={tab} data-tab-panel={tab} hidden={tab !== active}>
                <Panel view={views[tab]} tab={tab} />
              </div>
            ))
          ) : (
            <EventList state={data?.failed ? { status: "error" } : { status: "loading" }} tab={active} />
          )}
          {subscribeUrl ? (
            <a
              href={subscribeUrl}
              {...newTab}
              className="inline-flex items-center gap-2 self-start rounded text-sm font-semibold text-brass-dark underline-offset-4 hover:underline"
            >
              <Rss aria-hidden="true" className="size-4" />
              Subscribe to the calendar
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          ) : null}
        </section>
        {data && data.months.length > 0 ? <MonthNav months={data.months} /> : null}
        <section aria-labelledby="calendar-heading" className="flex flex-col gap-4">
          <h2 id="calendar-heading" className="font-serif text-2xl font-semibold text-ink">
            Shared calendar
          </h2>
          <CalendarEmbed calendar={calendar} subscribeUrl={subscribeUrl} />
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

/** One tab's list; a switch changes only the `hidden` around it, so React leaves it as it is. */
const Panel = memo(function Panel({ view, tab }: { view: ListView; tab: EventsTab }) {
  const state: EventListState = useMemo(() => ({ status: "ready", view }), [view]);
  return <EventList state={state} tab={tab} />;
});

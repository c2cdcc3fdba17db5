import { memo, Suspense, useEffect, useMemo } from "react";
import { Await, useRevalidator, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { Rss } from "lucide-react";
import { PageHeader } from "~/components/page-header";
import { usePublicConfig } from "~/components/use-public-config";
import { events as page, site } from "~/content";
import { CalendarEmbed } from "~/events/calendar-embed";
import { EventList, type EventListState } from "~/events/event-list";
import { EventTabs } from "~/events/event-tabs";
import { eventsView, type EventsView } from "~/events/filter";
import { eventJsonLd } from "~/events/json-ld";
import { withDescriptionText } from "~/events/server/description.server";
import { readEventsOutcome } from "~/events/server/outcome.server";
import { FIRST_VIEW, listLimit, parseTab, TABS, type EventsTab } from "~/events/tab";
import { newTab } from "~/lib/external";
import { jsonLdScript } from "~/lib/json-ld";
import { pageMeta } from "~/lib/seo";
import { EVENTS_PAGE_WAIT_MS } from "~/site-routes";
import type { Route } from "./+types/events";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Member Events",
    description: page.description,
    path: "/events",
    matches,
  });

/** What the page shows: both tabs' views (null while the calendar's first read goes on, or when it failed). */
type EventsData = { views: Record<EventsTab, EventsView> | null; failed: boolean };

// The events are in the HTML (readable without JavaScript, indexable): the first view of both
// tabs, every event of the address's tab with `?all=1`. Its size stays flat however many events
// the calendar holds, and a tab switch needs nothing from the network. A first read of the
// calendar that takes over a second is not waited for: the page goes out in its loading state,
// its scripts start at once, and the list follows from this loader. The loading and error states:
// the answer store lets no browser or CDN keep them as the page for /events.
export async function loader({ request, context }: Route.LoaderArgs): Promise<EventsData> {
  const search = new URL(request.url).searchParams;
  const outcome = await readEventsOutcome(context, EVENTS_PAGE_WAIT_MS);
  if (!outcome.ok) return { views: null, failed: !outcome.loading };
  const shown = parseTab(search);
  // The split's own instant rather than the clock: the same bytes on every server.
  const view = (tab: EventsTab) => {
    const list = eventsView(outcome.response, tab, outcome.splitAt, tab === shown ? listLimit(search) : FIRST_VIEW);
    // The calendar copy carries each description as HTML only; the cards' links want its text too.
    return { ...list, events: list.events.map(withDescriptionText) };
  };
  return { views: { upcoming: view("upcoming"), past: view("past") }, failed: false };
}

// In-app navigation to /events (browsers without speculation rules), "Show all", and a page served
// loading: the page shows at once in its loading state, and the list follows from the loader.
export function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const pending = serverLoader();
  // A failure is shown by <Await>'s error state; it is not an unhandled rejection meanwhile.
  pending.catch(() => {});
  return { pending };
}

// A tab switch shows views the page already has: neither this loader nor the root's runs again.
// Only every event of a tab that the page does not hold yet (`?all=1`) is asked for.
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  const all = listLimit(nextUrl.searchParams) === Number.POSITIVE_INFINITY;
  return all && (parseTab(nextUrl.searchParams) !== parseTab(currentUrl.searchParams) || !currentUrl.searchParams.has("all"));
}

export default function EventsPage({ loaderData }: Route.ComponentProps) {
  if (!("pending" in loaderData)) return <Events data={loaderData} />;
  return (
    <Suspense fallback={<Events data={null} />}>
      <Await resolve={loaderData.pending} errorElement={<Events data={{ views: null, failed: true }} />}>
        {(data: EventsData) => <Events data={data} />}
      </Await>
    </Suspense>
  );
}

/** The page; `data` null while its list is on the way. */
function Events({ data }: { data: EventsData | null }) {
  const [search] = useSearchParams();
  const active = parseTab(search);
  const limit = listLimit(search);
  const { siteUrl, calendar } = usePublicConfig();
  const views = data?.views;
  const revalidator = useRevalidator();
  const loading = data !== null && views === null && !data.failed;
  // A page served while the calendar's first read went on asks again until it has the list.
  useEffect(() => {
    if (loading) void revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer, not per revalidator state
  }, [data]);
  // The address's tab shows as many as it asks for, the other its first view.
  const shown = views
    ? {
        upcoming: firstOf(views.upcoming, active === "upcoming" ? limit : FIRST_VIEW),
        past: firstOf(views.past, active === "past" ? limit : FIRST_VIEW),
      }
    : null;
  const subscribeUrl = views?.upcoming.subscribeUrl;
  // Structured data for the upcoming events a visitor can see on the page.
  const upcoming = shown?.upcoming.events ?? [];

  return (
    <>
      <PageHeader eyebrow="Calendar" title="Member Events" lead={page.lead} />
      <div className="mx-auto flex max-w-6xl flex-col gap-14 px-4 py-14 sm:px-6">
        <section aria-labelledby="events-list-heading" className="flex flex-col gap-6">
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
          {shown ? (
            TABS.map((tab) => (
              <div key={tab} data-tab-panel={tab} hidden={tab !== active}>
                <Panel view={shown[tab]} tab={tab} />
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

const cut = new WeakMap<EventsView, Map<number, EventsView>>();
/** The view's first `limit` events, the same object each time it is asked for: a switch re-renders no list. */
function firstOf(view: EventsView, limit: number): EventsView {
  if (view.events.length <= limit) return view;
  const known = cut.get(view) ?? new Map<number, EventsView>();
  cut.set(view, known);
  const part = known.get(limit) ?? { ...view, events: view.events.slice(0, limit) };
  known.set(limit, part);
  return part;
}

/** One tab's list; a switch changes only the `hidden` around it, so React leaves it as it is. */
const Panel = memo(function Panel({ view, tab }: { view: EventsView; tab: EventsTab }) {
  const state: EventListState = useMemo(() => ({ status: "ready", view }), [view]);
  return <EventList state={state} tab={tab} />;
});

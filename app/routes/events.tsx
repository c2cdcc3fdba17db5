import { PageHeader } from "~/components/page-header";
import { CalendarEmbed } from "~/events/calendar-embed";
import { EventTabs } from "~/events/event-tabs";
import { parseTab } from "~/events/tab";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/events";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Member Events",
    description: "Core groups, speaker evenings and socials: the community's upcoming and past events and shared calendar.",
    path: "/events",
    matches,
  });

export function loader({ request }: Route.LoaderArgs) {
  return { tab: parseTab(new URL(request.url).searchParams) };
}

export default function Events({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        eyebrow="Calendar"
        title="Member Events"
        lead="Speaker evenings, workshops and socials, virtual and in New York. Events marked Members Only need a login at the portal."
      />
      <div className="mx-auto flex max-w-6xl flex-col gap-12 px-4 py-14 sm:px-6">
        <section aria-labelledby="events-list-heading" className="flex flex-col gap-6">
          <div className="flex flex-wrap items-center justify-between gap-4">
            <h2 id="events-list-heading" className="font-serif text-3xl font-semibold tracking-tight text-ink">
              {loaderData.tab === "past" ? "Past events" : "Upcoming events"}
            </h2>
            <EventTabs active={loaderData.tab} />
          </div>
        </section>
        <section aria-labelledby="calendar-heading" className="flex flex-col gap-4">
          <h2 id="calendar-heading" className="font-serif text-2xl font-semibold text-ink">
            Shared calendar
          </h2>
          <CalendarEmbed />
        </section>
      </div>
    </>
  );
}

import { data } from "react-router";
import { ArrowLeft, ArrowRight } from "lucide-react";
import { PageHeader } from "~/components/page-header";
import { PageLink } from "~/components/page-link";
import { site } from "~/content";
import { archiveOf, archivePage, monthPagePath, PAGE_SIZE, type ArchiveMonth } from "~/events/archive";
import { EventItems } from "~/events/event-list";
import type { ListEvent } from "~/events/model";
import { UNDATED } from "~/events/month-groups";
import { MonthNav } from "~/events/month-nav";
import { listEventOf } from "~/events/server/description.server";
import { readEventsOutcome } from "~/events/server/outcome.server";
import { StaleNote } from "~/events/stale-note";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/events-month";

// GET /events/month/:month and /events/month/:month/:part: one page of the archive (app/events/archive.ts),
// a month's events in date order as the lists show them, with the months before and after and every month.
// The server answers an address that names no page with the stored 404 page before any render
// (server/answer-store.ts); the checks here cover renders outside the store.

type MonthLink = Pick<ArchiveMonth, "key" | "label">;

type MonthPageData = {
  month: ArchiveMonth;
  part: number;
  events: ListEvent[];
  months: readonly ArchiveMonth[];
  /** The months with events just before and after this one (none for the undated events' page). */
  earlier?: MonthLink;
  later?: MonthLink;
  stale: boolean;
  updatedAt?: string;
};

export async function loader({ params, context }: Route.LoaderArgs): Promise<MonthPageData> {
  const outcome = await readEventsOutcome(context);
  if (!outcome.ok) throw data(null, { status: 503 });
  const archive = archiveOf(outcome.response.events);
  const page = archivePage(archive, params.month, "part" in params ? params.part : undefined);
  if (!page) throw data(null, { status: 404 });
  const { stale, updatedAt } = outcome.response;
  const dated = archive.months.filter((month) => month.key !== UNDATED);
  const at = dated.indexOf(page.month);
  const earlier = at >= 0 ? dated[at + 1] : undefined;
  const later = at > 0 ? dated[at - 1] : undefined;
  const linkTo = ({ key, label }: ArchiveMonth): MonthLink => ({ key, label });
  return {
    month: page.month,
    part: page.part,
    events: page.events.map(listEventOf),
    months: archive.months,
    ...(earlier ? { earlier: linkTo(earlier) } : {}),
    ...(later ? { later: linkTo(later) } : {}),
    stale,
    ...(stale && updatedAt ? { updatedAt } : {}),
  };
}

/** "Events in March 2026", "… (page 2 of 3)". */
function headingOf({ month, part }: Pick<MonthPageData, "month" | "part">): string {
  const title = month.key === UNDATED ? "Events with a date to be announced" : `Events in ${month.label}`;
  return month.parts > 1 ? `${title} (page ${part} of ${month.parts})` : title;
}

/** "120 events, in date order", "Events 51 to 100 of 120, in date order". */
function countOf(month: ArchiveMonth, part: number, shown: number): string {
  if (month.parts === 1) return `${month.count} ${month.count === 1 ? "event" : "events"}, in date order`;
  const first = (part - 1) * PAGE_SIZE + 1;
  return `Events ${first} to ${first + shown - 1} of ${month.count}, in date order`;
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return pageMeta({ title: "Page Not Found", description: "This page does not exist.", matches });
  const { month, part } = loaderData;
  const when = month.key === UNDATED ? "with a date still to be announced" : `in ${month.label}`;
  const which = month.parts > 1 ? `, page ${part} of ${month.parts}` : "";
  return pageMeta({
    title: headingOf(loaderData),
    description: `The ${month.count} ${site.name} ${month.count === 1 ? "event" : "events"} ${when}${which}: what, when and where, in date order.`,
    path: monthPagePath(month.key, part),
    matches,
  });
};

const stepClass =
  "inline-flex items-center gap-1.5 rounded text-sm font-semibold text-ink underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-dark";

export default function EventsMonthRoute({ loaderData }: Route.ComponentProps) {
  const { month, part, events, months, earlier, later, stale, updatedAt } = loaderData;
  return (
    <>
      <PageHeader eyebrow="Member Events" title={headingOf(loaderData)} />
      <div className="mx-auto flex max-w-6xl flex-col gap-10 px-4 py-10 sm:px-6 sm:py-14">
        <nav aria-label="Months" className="flex flex-wrap items-center justify-between gap-x-6 gap-y-3">
          <PageLink to="/events" className={stepClass}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            All member events
          </PageLink>
          <span className="flex flex-wrap gap-x-6 gap-y-3">
            {earlier ? (
              <PageLink to={monthPagePath(earlier.key)} className={stepClass}>
                <ArrowLeft aria-hidden="true" className="size-4" />
                {earlier.label}
              </PageLink>
            ) : null}
            {later ? (
              <PageLink to={monthPagePath(later.key)} className={stepClass}>
                {later.label}
                <ArrowRight aria-hidden="true" className="size-4" />
              </PageLink>
            ) : null}
          </span>
        </nav>
        {stale && updatedAt ? <StaleNote what="events" updatedAt={updatedAt} /> : null}
        <section aria-labelledby="month-events-heading" className="flex flex-col gap-6">
          <h2 id="month-events-heading" className="font-serif text-2xl font-semibold text-ink">
            {countOf(month, part, events.length)}
          </h2>
          <EventItems events={events} />
          {month.parts > 1 ? <Parts month={month} part={part} /> : null}
        </section>
        <MonthNav months={months} current={month.key} />
      </div>
    </>
  );
}

/** The pages of a busy month. */
function Parts({ month, part }: { month: ArchiveMonth; part: number }) {
  return (
    <nav aria-label={`Pages of ${month.label}`}>
      <ul className="flex flex-wrap items-center gap-2">
        {Array.from({ length: month.parts }, (_, i) => i + 1).map((n) => (
          <li key={n}>
            <PageLink
              to={monthPagePath(month.key, n)}
              discover="none"
              aria-current={n === part ? "page" : undefined}
              className="archive-chip"
            >
              <span className="sr-only">Page </span>
              {n}
            </PageLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

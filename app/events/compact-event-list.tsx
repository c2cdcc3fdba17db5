import { PageLink } from "~/components/page-link";
import { cx } from "~/lib/cx";
import { eventTitle, eventType } from "./classify";
import { formatEventDate } from "./format-date";
import { eventPagePath } from "./links";
import type { CalendarEvent } from "./model";
import { dateBlock, groupByMonth } from "./month-groups";
import { TypeBadge } from "./type-badge";

/**
 * The list on phones: a date block, the title (a link to the event's page, which has the
 * details), the badge and one line of place, grouped by month.
 */
export function CompactEventList({ events, className }: { events: CalendarEvent[]; className?: string }) {
  return (
    <div className={cx("flex flex-col gap-6", className)}>
      {groupByMonth(events).map((group) => (
        <section key={group.key} aria-labelledby={`month-${group.key}`} className="flex flex-col gap-3">
          <h3 id={`month-${group.key}`} className="text-xs font-semibold tracking-[0.18em] text-brass-dark uppercase">
            {group.label}
          </h3>
          <ul className="flex flex-col gap-2.5">
            {group.events.map((event) => (
              <li key={event.id} className="[contain-intrinsic-size:auto_4.5rem] [content-visibility:auto]">
                <CompactEvent event={event} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function CompactEvent({ event }: { event: CalendarEvent }) {
  const title = eventTitle(event);
  const type = eventType(title);
  const block = dateBlock(event);
  const when = formatEventDate(event.start, event.end);
  const place = [block?.time, event.location].filter(Boolean).join(" · ");
  return (
    // The title's link covers the whole item (its ::after), so the item is one large tap target.
    <div className="relative flex gap-3 rounded-xl border border-ink/10 bg-white p-3 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brass-dark">
      <div aria-hidden="true" className="flex w-12 shrink-0 flex-col items-center justify-center rounded-lg bg-sand py-1.5 text-ink">
        <span className="text-[0.6875rem] font-semibold tracking-wide uppercase">{block?.weekday ?? "TBD"}</span>
        <span className="font-serif text-xl leading-none font-semibold">{block?.day ?? "–"}</span>
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex items-start justify-between gap-2">
          <PageLink
            to={eventPagePath(event.id)}
            className="leading-snug font-semibold wrap-anywhere text-ink outline-none after:absolute after:inset-0 after:content-['']"
          >
            {title}
          </PageLink>
          <TypeBadge type={type} size="small" className="shrink-0" />
        </div>
        <p className="sr-only">{when}</p>
        {place ? <p className="truncate text-sm text-ink-soft">{place}</p> : null}
      </div>
    </div>
  );
}

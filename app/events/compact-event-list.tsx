import { useId } from "react";
import { PageLink } from "~/components/page-link";
import { cx } from "~/lib/cx";
import { eventTitle, eventType } from "./classify";
import { formatEventDate } from "./format-date";
import { eventPagePath } from "./links";
import type { ListEvent } from "./model";
import { dateBlock, groupByMonth } from "./month-groups";
import { TypeBadge } from "./type-badge";

/**
 * The list on phones: a date block, the title (a link to the event's page, which has the
 * details), the badge and one line of place, grouped by month. Its look lives in app.css (.compact-events).
 * A page can hold several lists (/events has both tabs', and a month can be in both): each list's
 * heading ids start with its own React id, so they are unique in the document and each section names
 * its own list's heading, the same on the server and in the browser.
 */
export function CompactEventList({ events, className }: { events: readonly ListEvent[]; className?: string }) {
  const listId = useId();
  return (
    <div className={cx("compact-events", className)}>
      {groupByMonth(events).map((group) => (
        <section key={group.key} aria-labelledby={`${listId}month-${group.key}`}>
          <h3 id={`${listId}month-${group.key}`}>{group.label}</h3>
          <ul>
            {group.events.map((event) => (
              <li key={event.id}>
                <CompactEvent event={event} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function CompactEvent({ event }: { event: ListEvent }) {
  const title = eventTitle(event);
  const type = eventType(title);
  const block = dateBlock(event);
  const when = formatEventDate(event.start, event.end);
  const place = [block?.time, event.location].filter(Boolean).join(" · ");
  return (
    // The title's link covers the whole item (its ::after), so the item is one large tap target.
    <div className="compact-event">
      <div aria-hidden="true" className="compact-event-day">
        <span>{block?.weekday ?? "TBD"}</span>
        <span>{block?.day ?? "–"}</span>
      </div>
      <div className="compact-event-body">
        <div>
          <PageLink to={eventPagePath(event.id)} discover="none">
            {title}
          </PageLink>
          <TypeBadge type={type} size="small" className="shrink-0" />
        </div>
        <p className="sr-only">{when}</p>
        {place ? <p className="compact-event-place">{place}</p> : null}
      </div>
    </div>
  );
}

import { useRef, type MouseEvent } from "react";
import { Link, useNavigate } from "react-router";
import { TABS, tabSearch, type EventsTab } from "./tab";

const label: Record<EventsTab, string> = { upcoming: "Upcoming", past: "Past" };

/**
 * Upcoming/Past toggle. Links, so the tab lives in the URL and works without JavaScript; with it,
 * a switch happens in place (./tab-switch.ts), so the look follows `aria-current` alone.
 */
export function EventTabs({ active }: { active: EventsTab }) {
  const navigate = useNavigate();
  // The tab a tap asked for whose navigation has not started yet.
  const pending = useRef<string | null>(null);
  // The list has switched in the click's own frame (./tab-switch.ts); React Router follows once that frame is painted, so its
  // render never holds the switch back.
  const follow = (event: MouseEvent, tab: EventsTab) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // The view shown, or about to be, already: nothing to load again. Judged by the address now (or the
    // tap still on its way), not the one this render saw: a tap after the last navigation moved the
    // address but before React rendered it, or before that navigation started, would otherwise be lost.
    const wanted = tabSearch(tab);
    if (wanted === (pending.current ?? window.location.search)) return;
    pending.current = wanted;
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (pending.current === wanted) pending.current = null;
        void navigate({ pathname: "/events", search: wanted });
      }),
    );
  };
  return (
    <nav aria-label="Events">
      <ul className="inline-flex rounded-full border border-ink/15 bg-white p-1">
        {TABS.map((tab) => (
          <li key={tab}>
            <Link
              to={{ pathname: "/events", search: tabSearch(tab) }}
              data-tab={tab}
              onClick={(event) => follow(event, tab)}
              aria-current={tab === active ? "page" : undefined}
              className="block rounded-full px-5 py-2 text-sm font-semibold text-ink not-aria-[current=page]:hover:bg-sand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-dark aria-[current=page]:bg-ink aria-[current=page]:text-paper"
            >
              {label[tab]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

import { Link } from "react-router";
import { cx } from "~/lib/cx";
import type { EventsTab } from "./tab";

const tabs: Array<{ id: EventsTab; label: string; search: string }> = [
  { id: "upcoming", label: "Upcoming", search: "" },
  { id: "past", label: "Past", search: "?tab=past" },
];

/** Upcoming/Past toggle. Links, so the tab lives in the URL and works without JavaScript. */
export function EventTabs({ active }: { active: EventsTab }) {
  return (
    <nav aria-label="Events">
      <ul className="inline-flex rounded-full border border-ink/15 bg-white p-1">
        {tabs.map((tab) => (
          <li key={tab.id}>
            <Link
              to={{ pathname: "/events", search: tab.search }}
              preventScrollReset
              aria-current={tab.id === active ? "page" : undefined}
              className={cx(
                "block rounded-full px-5 py-2 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-dark",
                tab.id === active ? "bg-ink text-paper" : "text-ink hover:bg-sand",
              )}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

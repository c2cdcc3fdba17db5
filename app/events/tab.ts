export type EventsTab = "upcoming" | "past";

export const TABS: readonly EventsTab[] = ["upcoming", "past"];

/** How many events each tab shows on /events; the rest are on the archive's month pages (./archive.ts). */
export const FIRST_VIEW = 10;

/** `?tab=past` selects Past; anything else is the default, Upcoming. */
export function parseTab(search: URLSearchParams): EventsTab {
  return search.get("tab") === "past" ? "past" : "upcoming";
}

/** The query string of a tab's first view. */
export function tabSearch(tab: EventsTab): string {
  return tab === "past" ? "?tab=past" : "";
}

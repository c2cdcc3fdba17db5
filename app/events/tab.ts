export type EventsTab = "upcoming" | "past";

export const TABS: readonly EventsTab[] = ["upcoming", "past"];

/** How many events a tab shows before "Show all" (`?all=1` shows every one). */
export const FIRST_VIEW = 10;

/** `?tab=past` selects Past; anything else is the default, Upcoming. */
export function parseTab(search: URLSearchParams): EventsTab {
  return search.get("tab") === "past" ? "past" : "upcoming";
}

/** How many events the address's tab shows. */
export function listLimit(search: URLSearchParams): number {
  return search.get("all") === "1" ? Number.POSITIVE_INFINITY : FIRST_VIEW;
}

/** The query string of a tab's first view. */
export function tabSearch(tab: EventsTab): string {
  return tab === "past" ? "?tab=past" : "";
}

export type EventsTab = "upcoming" | "past";

/** `?tab=past` selects Past; anything else is the default, Upcoming. */
export function parseTab(search: URLSearchParams): EventsTab {
  return search.get("tab") === "past" ? "past" : "upcoming";
}

/** How many events a tab shows before "Show all" (`?all=1` shows every one). */
export function listLimit(search: URLSearchParams): number {
  return search.get("all") === "1" ? Number.POSITIVE_INFINITY : 10;
}

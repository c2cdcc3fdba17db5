export type EventsTab = "upcoming" | "past";

/** `?tab=past` selects Past; anything else is the default, Upcoming. */
export function parseTab(search: URLSearchParams): EventsTab {
  return search.get("tab") === "past" ? "past" : "upcoming";
}

// Browser-safe paths of the events API (no server code here).

export const EVENTS_API_PATH = "/api/calendar/events";

/** The add-to-calendar download of one event (ids are URL-safe; encoded anyway). */
export function eventIcsPath(id: string): string {
  return `${EVENTS_API_PATH}/${encodeURIComponent(id)}.ics`;
}

/** The bundled sample calendar as a subscribable feed (used when no source is configured). */
export const SAMPLE_FEED_PATH = "/api/calendar/feed.ics";

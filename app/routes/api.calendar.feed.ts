import { sampleFeedOf } from "~/events/server/events.server";
import { jsonError } from "~/events/server/http.server";
import { foldLines } from "~/events/server/ics-text.server";
import { siteParts } from "~/site-parts.server";
import type { Route } from "./+types/api.calendar.feed";

// GET /api/calendar/feed.ics: the bundled sample calendar, subscribable, when no source is configured.
// Served as RFC 5545 asks whatever an edit of the file did to its lines: CRLF line ends, lines
// folded at 75 octets, never inside a UTF-8 character. Stored once per process (a static answer).
export function loader({ context }: Route.LoaderArgs) {
  const feed = sampleFeedOf(siteParts(context).events);
  if (!feed) return jsonError(404, "This site publishes no calendar feed of its own.");
  return new Response(`${foldLines(feed.trimEnd())}\r\n`, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="founders-circle-sample.ics"',
    },
  });
}

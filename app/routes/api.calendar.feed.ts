import { sampleFeed } from "~/events/server/events.server";
import { jsonError } from "~/events/server/http.server";
import { foldLines } from "~/events/server/ics-text.server";

// GET /api/calendar/feed.ics: the bundled sample calendar, subscribable, when no source is configured.
// Served as RFC 5545 asks whatever an edit of the file did to its lines: CRLF line ends, lines
// folded at 75 octets, never inside a UTF-8 character. Stored once per process (a static answer).
export function loader() {
  const feed = sampleFeed();
  if (!feed) return jsonError(404, "This site publishes no calendar feed of its own.");
  return new Response(`${foldLines(feed.trimEnd())}\r\n`, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="founders-circle-sample.ics"',
    },
  });
}

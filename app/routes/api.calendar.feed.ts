import { sampleFeed } from "~/events/server/events.server";
import { jsonError } from "~/events/server/http.server";

// GET /api/calendar/feed.ics: the bundled sample calendar, subscribable, when no source is configured.
export function loader() {
  const feed = sampleFeed();
  if (!feed) return jsonError(404, "This site publishes no calendar feed of its own.");
  return new Response(feed, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="founders-circle-sample.ics"',
    },
  });
}

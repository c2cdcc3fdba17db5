import { EventsUnavailableError } from "~/events/server/events.server";
import { jsonError } from "~/events/server/http.server";
import { eventToIcs, icsFileName } from "~/events/server/ics-download.server";
import { isEventId } from "~/events/server/ids.server";
import { readEvents } from "~/events/server/outcome.server";
import { requestContext } from "~/request-context.server";
import { siteParts } from "~/site-parts.server";
import type { Route } from "./+types/api.calendar.event-ics";

// GET /api/calendar/events/:id.ics: one event as an iCalendar download ("add to calendar").
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = params.id;
  if (!id || !isEventId(id)) return jsonError(404, "No event with this id.");
  try {
    const event = (await readEvents(context)).events.find((candidate) => candidate.id === id);
    if (!event) return jsonError(404, "No event with this id.");
    const uidDomain = new URL(siteParts(context).publicConfig.siteUrl).hostname;
    return new Response(eventToIcs(event, { uidDomain }), {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": `attachment; filename="${icsFileName(event)}"`,
      },
    });
  } catch (error) {
    if (error instanceof EventsUnavailableError) {
      return jsonError(502, "The events calendar is unavailable right now. Please try again later.");
    }
    context.get(requestContext).log.error({ err: error }, "unexpected error answering an .ics download");
    return jsonError(500, "Something went wrong while preparing this event.");
  }
}

import { EventsUnavailableError } from "~/events/server/events.server";
import { jsonError, STALE_HEADER } from "~/events/server/http.server";
import { readEvents } from "~/events/server/snapshot.server";
import { requestContext } from "~/request-context.server";
import type { Route } from "./+types/api.calendar.events";

// GET /api/calendar/events: the events JSON (app/events/model.ts EventsResponse).
export async function loader({ context }: Route.LoaderArgs) {
  try {
    const answer = await readEvents(context);
    const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
    if (answer.stale) headers[STALE_HEADER] = "true";
    return new Response(JSON.stringify(answer), { headers });
  } catch (error) {
    if (error instanceof EventsUnavailableError) {
      return jsonError(502, "The events calendar is unavailable right now. Please try again later.");
    }
    context.get(requestContext).log.error({ err: error }, "unexpected error answering /api/calendar/events");
    return jsonError(500, "Something went wrong while loading events.");
  }
}

import type { EventsResponse } from "~/events/model";
import { jsonError, STALE_HEADER } from "~/events/server/http.server";
import { readEventsOutcome } from "~/events/server/outcome.server";
import { requestContext } from "~/request-context.server";
import type { Route } from "./+types/api.calendar.events";

// GET /api/calendar/events: the events JSON (app/events/model.ts EventsResponse). The events' bytes
// were serialised once, in the calendar worker: they are wrapped here, never stringified again.
export async function loader({ context }: Route.LoaderArgs) {
  try {
    return await answer(context);
  } catch (error) {
    context.get(requestContext).log.error({ err: error }, "unexpected error answering /api/calendar/events");
    return jsonError(500, "Something went wrong while loading events.");
  }
}

async function answer(context: Route.LoaderArgs["context"]): Promise<Response> {
  const outcome = await readEventsOutcome(context);
  if (!outcome.ok) return jsonError(502, "The events calendar is unavailable right now. Please try again later.");
  const { stale, subscribeUrl, updatedAt } = outcome.response;
  const rest: Omit<EventsResponse, "events"> = { stale, subscribeUrl, ...(updatedAt ? { updatedAt } : {}) };
  const body = Buffer.concat([Buffer.from('{"events":'), outcome.json, Buffer.from(`,${JSON.stringify(rest).slice(1)}`)]);
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  if (stale) headers[STALE_HEADER] = "true";
  return new Response(body, { headers });
}

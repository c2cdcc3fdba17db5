import { readEventsOutcome } from "~/events/server/outcome.server";
import { siteParts } from "~/site-parts.server";
import type { Route } from "./+types/event-image";

// GET /events/:id/og.png: the event's share card, usually drawn ahead of the request (see
// share-images.server.ts). Stored per calendar version like its page; unknown ids never reach
// here (server/answer-store.ts answers them with the 404 page).
export async function loader({ params, context }: Route.LoaderArgs) {
  const outcome = await readEventsOutcome(context);
  if (!outcome.ok)
    return new Response("The events calendar is unavailable right now.", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const event = outcome.response.events.find((candidate) => candidate.id === params.id);
  if (!event) return new Response("No event with this id.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const png = await siteParts(context).shareImages.imageFor(event);
  return new Response(new Uint8Array(png), { headers: { "Content-Type": "image/png" } });
}

import { data } from "react-router";
import { site } from "~/content";
import { usePublicConfig } from "~/components/use-public-config";
import { badgeLabel, eventTitle, eventType } from "~/events/classify";
import { EventPage, type EventPageData } from "~/events/event-page";
import { endInstant } from "~/events/filter";
import { formatEventDate } from "~/events/format-date";
import { summaryOf } from "~/events/summary";
import { oneEventJsonLd } from "~/events/json-ld";
import { eventImagePath, eventPagePath } from "~/events/links";
import { withDescriptionText } from "~/events/server/description.server";
import { readEventsOutcome } from "~/events/server/outcome.server";
import { jsonLdScript } from "~/lib/json-ld";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/event";

// GET /events/:id. The server answers an id the calendar does not list with the stored 404 page
// before any render (server/answer-store.ts); the checks here cover renders outside the store.
export async function loader({ params, context }: Route.LoaderArgs): Promise<EventPageData> {
  const outcome = await readEventsOutcome(context);
  if (!outcome.ok) throw data(null, { status: 503 });
  const { events, stale, updatedAt } = outcome.response;
  const event = events.find((candidate) => candidate.id === params.id);
  if (!event) throw data(null, { status: 404 });
  // The answer is stored per calendar version, which changes when an event ends (outcome.server.ts).
  return { event: withDescriptionText(event), past: endInstant(event) <= outcome.splitAt, stale, updatedAt };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return pageMeta({ title: "Page Not Found", description: "This page does not exist.", matches });
  const { event } = loaderData;
  const title = eventTitle(event);
  const when = formatEventDate(event.start, event.end);
  const lead = [`${badgeLabel[eventType(title)]} · ${when}`, event.location].filter(Boolean).join(" · ");
  return pageMeta({
    title,
    description: summaryOf([`${lead}.`, event.descriptionText ?? ""].join(" "), 160),
    path: eventPagePath(event.id),
    matches,
    image: { path: eventImagePath(event.id), alt: `${title}: ${when}. ${site.name}.` },
  });
};

export default function EventRoute({ loaderData }: Route.ComponentProps) {
  const { siteUrl, loginUrl } = usePublicConfig();
  const pageUrl = `${siteUrl}${eventPagePath(loaderData.event.id)}`;
  const jsonLd = oneEventJsonLd(loaderData.event, { name: site.name, url: siteUrl });
  return (
    <>
      <EventPage data={loaderData} links={{ pageUrl, loginUrl }} />
      {jsonLd ? <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdScript(jsonLd) }} /> : null}
    </>
  );
}

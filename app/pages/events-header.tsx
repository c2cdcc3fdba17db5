// The events page's opening band, drawn from events.yaml: by its route (app/routes/events.tsx) and by
// the content editor's preview (app/preview/). The events below it come from the calendar.
import { PageHeader } from "~/components/page-header";
import type { Content } from "~/content/schema";

export function EventsHeader({ events }: { events: Content["events"] }) {
  return <PageHeader eyebrow="Calendar" title="Member Events" lead={events.lead} />;
}

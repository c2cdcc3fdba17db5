import { CalendarDays, ExternalLink, Rss } from "lucide-react";
import { site } from "~/content";
import { newTab } from "~/lib/external";
import type { CalendarConfig } from "~/lib/public-config";
import { CALENDAR_EMBED } from "./embed-url";
import { SAMPLE_FEED_PATH } from "./links";

const linkStyle =
  "inline-flex items-center gap-1.5 self-start rounded text-sm font-medium text-brass-dark underline-offset-4 hover:underline";

/**
 * The community's calendar (spec §9: 600 px high, America/New_York), or, when none is configured,
 * a plain note saying where the listed events come from: never a stranger's calendar. Its height
 * is the iframe's height attribute, not a style attribute: the Content-Security-Policy allows no
 * inline styles.
 */
export function CalendarEmbed({ calendar, subscribeUrl }: { calendar: CalendarConfig; subscribeUrl?: string }) {
  const { embedUrl } = calendar;
  if (!embedUrl) return <NoEmbed source={calendar.source} subscribeUrl={subscribeUrl} />;
  return (
    <div className="flex flex-col gap-3">
      <div className="overflow-hidden rounded-2xl border border-ink/10 bg-white">
        <iframe
          src={embedUrl}
          title={`${site.name} shared events calendar`}
          loading="lazy"
          height={CALENDAR_EMBED.height}
          className="block w-full border-0"
        />
      </div>
      <a href={embedUrl} {...newTab} className={linkStyle}>
        Open the calendar in a new tab
        <ExternalLink aria-hidden="true" className="size-3.5" />
      </a>
    </div>
  );
}

function NoEmbed({ source, subscribeUrl }: { source: CalendarConfig["source"]; subscribeUrl?: string }) {
  const feed = subscribeUrl ?? (source === "sample" ? SAMPLE_FEED_PATH : undefined);
  return (
    <div
      data-testid="calendar-placeholder"
      className="flex flex-col items-start gap-3 rounded-2xl border border-dashed border-ink/25 bg-white p-6"
    >
      <CalendarDays aria-hidden="true" className="size-6 text-brass-dark" />
      {source === "sample" ? (
        <p className="max-w-2xl leading-relaxed text-ink-soft">
          The events on this page come from the <strong className="font-semibold text-ink">sample calendar</strong> that ships with the
          site, so there is no shared calendar to show yet. You can still add the sample events to your own calendar app.
        </p>
      ) : (
        <p className="max-w-2xl leading-relaxed text-ink-soft">
          The community publishes its calendar as a feed: subscribe to it to see every event in your own calendar app.
        </p>
      )}
      {feed ? (
        <a href={feed} {...newTab} className={linkStyle}>
          <Rss aria-hidden="true" className="size-3.5" />
          {source === "sample" ? "Subscribe to the sample calendar" : "Subscribe to the calendar"}
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      ) : null}
    </div>
  );
}

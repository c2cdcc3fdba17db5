import { ExternalLink } from "lucide-react";
import { site } from "~/content";
import { newTab } from "~/lib/external";

/**
 * The shared public calendar (spec §9: 600 px high, America/New_York). Its height is the iframe's
 * height attribute, not a style attribute: the Content-Security-Policy allows no inline styles.
 */
export function CalendarEmbed() {
  const { embedUrl, height } = site.calendar;
  return (
    <div className="flex flex-col gap-3">
    <div className="overflow-hidden rounded-2xl border border-ink/10 bg-white">
      <iframe
        src={embedUrl}
        title={`${site.name} shared events calendar`}
        loading="lazy"
        height={height}
        className="block w-full border-0"
      />
    </div>
      <a href={embedUrl} {...newTab} className="inline-flex items-center gap-1.5 self-start rounded text-sm font-medium text-brass-dark underline-offset-4 hover:underline">
        Open the calendar in a new tab
        <ExternalLink aria-hidden="true" className="size-3.5" />
      </a>
    </div>
  );
}

import { site } from "~/content";

/** The shared public calendar (spec §9: 600 px high, America/New_York). */
export function CalendarEmbed() {
  const { embedUrl, height } = site.calendar;
  return (
    <div className="overflow-hidden rounded-2xl border border-ink/10 bg-white">
      <iframe
        src={embedUrl}
        title={`${site.name} shared events calendar`}
        loading="lazy"
        height={height}
        className="block w-full border-0"
        style={{ height }}
      />
    </div>
  );
}

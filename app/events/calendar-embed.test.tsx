import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CalendarEmbed } from "./calendar-embed";
import { googleCalendarEmbedUrl } from "./embed-url";

describe("CalendarEmbed", () => {
  it("embeds the configured calendar, 600 px high, lazily", () => {
    const embedUrl = googleCalendarEmbedUrl("team@group.calendar.google.com");
    const html = renderToStaticMarkup(<CalendarEmbed calendar={{ source: "google", embedUrl }} />);
    const iframe = /<iframe [^>]*>/.exec(html)?.[0] ?? "";
    expect(iframe).toContain(
      'src="https://calendar.google.com/calendar/embed?src=team%40group.calendar.google.com&amp;ctz=America%2FNew_York"',
    );
    expect(iframe).toContain('height="600"');
    expect(iframe).toContain('loading="lazy"');
  });

  it("with the bundled sample shows no calendar: it says so and offers the sample's subscribe link", () => {
    const html = renderToStaticMarkup(<CalendarEmbed calendar={{ source: "sample" }} />);
    expect(html).not.toContain("<iframe");
    expect(html).toMatch(/sample calendar/);
    expect(html).toContain('href="/api/calendar/feed.ics"');
    expect(html).toContain("Subscribe to the sample calendar");
  });

  it("with an .ics feed and no embed offers the feed", () => {
    const html = renderToStaticMarkup(<CalendarEmbed calendar={{ source: "ics" }} subscribeUrl="webcal://example.org/feed.ics" />);
    expect(html).not.toContain("<iframe");
    expect(html).toContain('href="webcal://example.org/feed.ics"');
  });
});

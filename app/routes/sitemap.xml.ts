import { eventsForTab } from "~/events/filter";
import { eventPagePath } from "~/events/links";
import { readEventsOutcome } from "~/events/server/outcome.server";
import { siteParts } from "~/site-parts.server";
import { sitemapPaths } from "~/site-routes";
import type { Route } from "./+types/sitemap.xml";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const xml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

function entry(loc: string, lastmod?: string): string {
  return `  <url><loc>${xml(loc)}</loc>${lastmod ? `<lastmod>${xml(lastmod)}</lastmod>` : ""}</url>`;
}

// The site's pages, and a page for each upcoming event (past ones stay reachable, not advertised).
// Stored per calendar version (app/site-routes.ts), like the events page. A preview instance of a
// change lists nothing: its pages are not for search engines.
export async function loader({ context }: Route.LoaderArgs) {
  const { siteUrl, preview } = siteParts(context).publicConfig;
  const outcome = await readEventsOutcome(context);
  const urls = preview ? [] : sitemapPaths.map((path) => entry(`${siteUrl}${path}`));
  if (outcome.ok && !preview) {
    for (const event of eventsForTab(outcome.response.events, "upcoming", outcome.splitAt)) {
      urls.push(entry(`${siteUrl}${eventPagePath(event.id)}`, event.updated));
    }
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  // Without the calendar the event pages are missing: the answer store lets no cache keep that copy.
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}

import { siteParts } from "~/site-parts.server";
import { ADMIN_PATH } from "~/site-routes";
import type { Route } from "./+types/robots.txt";

export function loader({ context }: Route.LoaderArgs) {
  const { siteUrl } = siteParts(context).publicConfig;
  // The content editor is for the community's editors, not for search results.
  const body = `User-agent: *\nAllow: /\nDisallow: ${ADMIN_PATH}\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

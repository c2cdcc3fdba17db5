import { siteParts } from "~/site-parts.server";
import { ADMIN_PATH } from "~/site-routes";
import type { Route } from "./+types/robots.txt";

export function loader({ context }: Route.LoaderArgs) {
  const { siteUrl, preview } = siteParts(context).publicConfig;
  // The content editor is for the community's editors, not for search results; a preview instance of
  // a change is for no search engine at all.
  const body = preview
    ? "User-agent: *\nDisallow: /\n"
    : `User-agent: *\nAllow: /\nDisallow: ${ADMIN_PATH}\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

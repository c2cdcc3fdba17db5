import { getPublicConfig } from "~/config.server";
import { ADMIN_PATH } from "~/site-routes";

export function loader() {
  const { siteUrl } = getPublicConfig();
  // The content editor is for the community's editors, not for search results.
  const body = `User-agent: *\nAllow: /\nDisallow: ${ADMIN_PATH}\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

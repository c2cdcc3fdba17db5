import { getPublicConfig } from "~/config.server";

export function loader() {
  const { siteUrl } = getPublicConfig();
  const body = `User-agent: *\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

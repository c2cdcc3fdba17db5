import { about, site } from "~/content";
import { jsonLdScript } from "~/lib/json-ld";
import { usePublicConfig } from "./use-public-config";

/** The shipped square logo (public/logo.png, rendered from the favicon by scripts/render-artwork.js). */
export const LOGO = { path: "/logo.png", width: 512, height: 512 } as const;

/**
 * schema.org Organization for search engines: who runs the site. The description carries the
 * disclaimer the site shows, so the structured data says it too: a not-for-profit run by alumni,
 * not affiliated with the university.
 */
export function organizationJsonLd(siteUrl: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    "@id": `${siteUrl}/#organization`,
    name: site.name,
    url: siteUrl,
    logo: { "@type": "ImageObject", url: `${siteUrl}${LOGO.path}`, width: LOGO.width, height: LOGO.height },
    slogan: site.tagline,
    description: `${site.description} ${about.disclaimer}`,
    email: site.email,
    location: site.location,
    ...(site.nonprofitStatus ? { nonprofitStatus: `https://schema.org/${site.nonprofitStatus}` } : {}),
  };
}

/** Rendered once in the document head by the root layout, on every page. */
export function OrganizationJsonLd() {
  const { siteUrl } = usePublicConfig();
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdScript(organizationJsonLd(siteUrl)) }} />;
}

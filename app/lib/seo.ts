import type { MetaDescriptor } from "react-router";
import { site } from "~/content";
import { LOCAL_SITE_URL, type PublicConfig } from "./public-config";

type MetaInput = {
  title: string;
  description: string;
  /** The page's path, for the canonical URL; omit for pages that must not be canonical (404). */
  path?: string;
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
  /** The page's own share image (a path on this site, 1200×630); the site's card otherwise. */
  image?: { path: string; alt: string };
};

export function siteUrlFrom(matches: MetaInput["matches"]): string {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { config?: PublicConfig } | undefined;
  return root?.config?.siteUrl ?? LOCAL_SITE_URL;
}

/** Title, description, canonical URL, Open Graph and Twitter card tags for one page. */
export function pageMeta({ title, description, path, matches, image: ownImage }: MetaInput): MetaDescriptor[] {
  const siteUrl = siteUrlFrom(matches);
  const fullTitle = path === "/" ? `${site.name} · ${title}` : `${title} · ${site.name}`;
  const image = `${siteUrl}${ownImage?.path ?? "/og-image.png"}`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: site.name },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:image", content: image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:alt", content: ownImage?.alt ?? `${site.name}: ${site.tagline}` },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
  if (path !== undefined) {
    const url = `${siteUrl}${path}`;
    tags.push({ tagName: "link", rel: "canonical", href: url }, { property: "og:url", content: url });
  } else {
    tags.push({ name: "robots", content: "noindex" });
  }
  return tags;
}

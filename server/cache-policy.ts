// How long browsers and shared caches (a CDN) may keep each kind of answer. Pages change with a
// deploy (purge the CDN then; README "Deploy") and with the calendar, which is re-read every 5 minutes.
import { EVENTS_CACHE_CONTROL } from "~/events/server/http.server";
import type { CacheKind } from "~/site-routes";

/** Pages that change only with a deploy: a browser checks again after 5 minutes, a CDN after an hour. */
export const STATIC_CACHE_CONTROL = "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400";
/** The site's 404 page, for every unknown path. */
export const NOT_FOUND_CACHE_CONTROL = "public, max-age=300, s-maxage=3600";
/** Trailing-slash and letter-case redirects to a page's one address. */
export const REDIRECT_CACHE_CONTROL = "public, max-age=3600, s-maxage=86400";

const byKind: Record<CacheKind, string> = { static: STATIC_CACHE_CONTROL, events: EVENTS_CACHE_CONTROL };

/** The Cache-Control of a stored answer, from its kind, its status and what the route itself said. */
export function cacheControlFor(kind: CacheKind, status: number, own: string | null): string | undefined {
  if (status >= 500) return "no-store";
  if (status === 404) return kind === "static" ? NOT_FOUND_CACHE_CONTROL : EVENTS_CACHE_CONTROL;
  // A route's "no-store" (the events page in its error state) wins.
  if (own && /no-store/.test(own)) return "no-store";
  if (status === 200) return byKind[kind];
  return undefined;
}

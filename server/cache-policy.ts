// How long browsers and shared caches (a CDN) may keep each kind of answer: decided here alone, for
// every stored answer (routes set no caching header). Pages change with a deploy (purge the CDN then;
// docs/deploying.md#behind-a-cdn, with this table) and with the calendar, which is re-read every 5 minutes.
import type { CacheKind } from "~/site-routes";

/** The events page, event pages, their images and downloads, the API and the sitemap: they follow the calendar. */
export const EVENTS_CACHE_CONTROL = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";

/** Pages that change only with a deploy: a browser checks again after 5 minutes, a CDN after an hour. */
export const STATIC_CACHE_CONTROL = "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400";
/** The site's 404 page, for every unknown path. */
export const NOT_FOUND_CACHE_CONTROL = "public, max-age=300, s-maxage=3600";
/** The content editor's page and configuration: always checked again, so a deploy's new editor is used at once. */
export const ADMIN_CACHE_CONTROL = "no-cache";
/** Trailing-slash and letter-case redirects to a page's one address. */
export const REDIRECT_CACHE_CONTROL = "public, max-age=3600, s-maxage=86400";

const byKind: Record<CacheKind, string> = { static: STATIC_CACHE_CONTROL, events: EVENTS_CACHE_CONTROL };

/**
 * The Cache-Control of a stored answer, from its kind and status, and whether the calendar could be
 * read for it: the events page's loading and error states, and a sitemap without the event pages,
 * must not be kept by anyone as the answer for their address.
 */
export function cacheControlFor(kind: CacheKind, status: number, calendarRead = true): string {
  if (status >= 500 || !calendarRead) return "no-store";
  if (status === 404) return kind === "static" ? NOT_FOUND_CACHE_CONTROL : EVENTS_CACHE_CONTROL;
  if (status === 200) return byKind[kind];
  if (status === 301) return REDIRECT_CACHE_CONTROL;
  return "no-store";
}

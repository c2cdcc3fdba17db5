// Every URL the site answers, in one list: React Router's route table (app/routes.ts), the sitemap
// (app/routes/sitemap.xml.ts) and the server's stored answers and rate limits (server/) read it;
// the content editor's two addresses are at the end.

/**
 * How an answer is kept (server/answer-store.ts):
 * - `static`: depends only on the build and the start-up configuration; rendered once per process.
 * - `events`: follows the calendar: rendered once per version of the calendar (its events, and the Upcoming/Past split).
 */
export type CacheKind = "static" | "events";

export type SiteRoute = {
  /** React Router's path pattern, without the leading slash ("" is the home page). */
  pattern: string;
  /** The route module, relative to app/. */
  file: string;
  /** React Router's route id, for a second address of the same module (it defaults to the file's). */
  id?: string;
  cache: CacheKind;
  /** The query parameters the answer depends on, each with the values that change it; all others are ignored. */
  query?: Readonly<Record<string, readonly string[]>>;
  /** Query values the page once read and no longer does: a 301 to its address without them (old links and crawlers move on). */
  retiredQuery?: Readonly<Record<string, readonly string[]>>;
  /**
   * How long the answer waits for a calendar with nothing to show yet (the first read, still going);
   * past that it is rendered in its loading state. Without it, the events cache's own limit (4 s).
   */
  eventsWaitMs?: number;
  /** A path parameter naming one calendar event: an id the calendar does not list answers 404 without a render. */
  eventParam?: string;
  /**
   * Path parameters naming one page of the events archive (app/events/archive.ts): a month with no events,
   * a part past its last, or any other spelling answers 404 without a render.
   */
  archivePage?: { month: string; part?: string };
  /** How an unknown event id is answered: the site's 404 page, or (`json`) the API's JSON 404. */
  unknownEvent?: "json";
  /** Listed in the sitemap. */
  sitemap?: boolean;
  /** `api`: the stricter per-client limit (RATE_LIMIT_PER_MINUTE); everything else counts as a page. */
  rateLimit?: "api";
  /** `images`: a share card, answered from the share cards' own store (its budget, STORED_IMAGES_MB, apart from the pages'). */
  storeBudget?: "images";
};

/** The events page waits this long for a first read of the calendar, then goes out loading (issue 11). */
export const EVENTS_PAGE_WAIT_MS = 1_000;

export const siteRoutes: readonly SiteRoute[] = [
  { pattern: "", file: "routes/home.tsx", cache: "static", sitemap: true },
  { pattern: "apply", file: "routes/apply.tsx", cache: "static", sitemap: true },
  { pattern: "about", file: "routes/about.tsx", cache: "static", sitemap: true },
  { pattern: "contact", file: "routes/contact.tsx", cache: "static", sitemap: true },
  {
    pattern: "events",
    file: "routes/events.tsx",
    cache: "events",
    query: { tab: ["past"] },
    // "Show all" (issue 37): every event of a tab on one page, up to 31 MB of HTML; the archive's month pages replace it.
    retiredQuery: { all: ["1"] },
    eventsWaitMs: EVENTS_PAGE_WAIT_MS,
    sitemap: true,
  },
  // The archive: a page per month of the calendar, a busy month in parts (app/events/archive.ts).
  { pattern: "events/month/:month", file: "routes/events-month.tsx", cache: "events", archivePage: { month: "month" } },
  {
    pattern: "events/month/:month/:part",
    file: "routes/events-month.tsx",
    id: "routes/events-month-part",
    cache: "events",
    archivePage: { month: "month", part: "part" },
  },
  // One page per calendar event, and its share image (og:image).
  { pattern: "events/:id", file: "routes/event.tsx", cache: "events", eventParam: "id" },
  { pattern: "events/:id/og.png", file: "routes/event-image.ts", cache: "events", eventParam: "id", storeBudget: "images" },
  { pattern: "portal", file: "routes/portal.tsx", cache: "static", sitemap: true },
  { pattern: "sitemap.xml", file: "routes/sitemap.xml.ts", cache: "events" },
  { pattern: "robots.txt", file: "routes/robots.txt.ts", cache: "static" },
  { pattern: "api/calendar/events", file: "routes/api.calendar.events.ts", cache: "events", rateLimit: "api" },
  {
    pattern: "api/calendar/events/:id.ics",
    file: "routes/api.calendar.event-ics.ts",
    cache: "events",
    eventParam: "id",
    unknownEvent: "json",
  },
  { pattern: "api/calendar/feed.ics", file: "routes/api.calendar.feed.ts", cache: "static" },
];

/**
 * The content editor (Sveltia CMS) and its configuration, answered by the server itself
 * (server/admin.ts), not React Router. For the community's editors only: robots.txt disallows it,
 * the sitemap leaves it out, and its answers say noindex.
 */
export const ADMIN_PATH = "/admin";
export const ADMIN_CONFIG_PATH = "/admin/config.json";
/**
 * "Sign in with GitHub" (server/github-oauth.ts, when the OAuth variables are set): the editor's
 * popup starts at the first, GitHub sends the volunteer back to the second, whose page's script asks
 * the third for the token once it knows the editor's window is there to take it. Rate-limited like the API.
 */
export const ADMIN_AUTH_PATH = "/admin/auth";
export const ADMIN_AUTH_CALLBACK_PATH = "/admin/auth/callback";
export const ADMIN_AUTH_TOKEN_PATH = "/admin/auth/token";

/** Renders every other path: the site's 404 page. */
export const notFoundRoute = { pattern: "*", file: "routes/not-found.tsx" } as const;

/** The path of a route without parameters ("/about"). */
export const pathOf = (route: Pick<SiteRoute, "pattern">) => `/${route.pattern}`;

/** Every indexable page, for the sitemap. */
export const sitemapPaths: readonly string[] = siteRoutes.filter((route) => route.sitemap).map(pathOf);

/** The routes that answer with an HTML page (a React component, `.tsx`), not data, a file or a download. */
export const pageRoutes: readonly SiteRoute[] = siteRoutes.filter((route) => route.file.endsWith(".tsx"));

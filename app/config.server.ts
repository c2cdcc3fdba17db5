import { site } from "~/content";
import type { Env } from "~/env.server";
import { googleCalendarEmbedUrl } from "~/events/embed-url";
import { LOCAL_SITE_URL, type CalendarConfig, type PublicConfig } from "~/lib/public-config";
import type { Logger } from "~/logger.server";

/**
 * The /events calendar: content/site.yaml's calendar.embedUrl when an operator set one, else
 * GOOGLE_CALENDAR_ID's embed; with neither (the bundled sample or an .ics feed) nothing is
 * embedded, so no stranger's calendar is ever shown.
 */
export function calendarConfig(env: Env, embedUrl: string | undefined = site.calendar?.embedUrl): CalendarConfig {
  const source = env.GOOGLE_CALENDAR_ID ? "google" : env.CALENDAR_ICS_URL ? "ics" : "sample";
  const embed = embedUrl ?? (env.GOOGLE_CALENDAR_ID ? googleCalendarEmbedUrl(env.GOOGLE_CALENDAR_ID) : undefined);
  return embed ? { source, embedUrl: embed } : { source };
}

/**
 * What the browser may know of the configuration: made once by createSite, read by loaders through the load context.
 * A preview instance's links (canonical, og:url, og:image, the sitemap's) point at itself, not at SITE_URL, which it
 * inherits from the live service: a link shared from a preview must not open the live site, nor the reverse.
 */
export function publicConfigOf(env: Env): PublicConfig {
  return {
    siteUrl: (env.previewUrl ?? env.SITE_URL ?? LOCAL_SITE_URL).replace(/\/+$/, ""),
    loginUrl: env.MEMBER_LOGIN_URL ?? site.provider.loginUrl,
    applicationUrl: env.APPLICATION_URL ?? site.provider.applicationUrl,
    contactSurveyUrl: env.CONTACT_SURVEY_URL ?? site.provider.contactSurveyUrl,
    calendar: calendarConfig(env),
    ...(env.previewUrl === undefined ? {} : { preview: true as const }),
  };
}

/** What decides the site's address: SITE_URL, unless this is a preview instance. */
type SiteUrlSettings = Pick<Env, "NODE_ENV" | "SITE_URL"> & Partial<Pick<Env, "previewUrl">>;

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]);

/**
 * Why SITE_URL is wrong for a deployed site, or undefined. Every canonical link, og:url, og:image,
 * the sitemap and robots.txt are built from it, so a production server without it tells search
 * engines and link previews to look on the visitor's own machine.
 */
export function siteUrlProblem(env: SiteUrlSettings): string | undefined {
  // A preview instance's links use its own address (publicConfigOf), whatever SITE_URL says.
  if (env.NODE_ENV !== "production" || env.previewUrl !== undefined) return undefined;
  const consequence =
    `canonical links, og:url, og:image, the sitemap and robots.txt point at ${env.SITE_URL ?? LOCAL_SITE_URL}, ` +
    "so link previews show no image and search engines get the wrong address. " +
    "Set SITE_URL to the site's public address (e.g. https://founders.example.org) and restart.";
  if (!env.SITE_URL) return `SITE_URL IS NOT SET: ${consequence}`;
  const host = URL.canParse(env.SITE_URL) ? new URL(env.SITE_URL).hostname : "";
  if (LOCAL_HOSTS.has(host) || host.endsWith(".localhost")) return `SITE_URL POINTS AT THIS MACHINE (${host}): ${consequence}`;
  return undefined;
}

/** Logged at start-up, at warn level, whenever siteUrlProblem finds one. */
export function warnAboutSiteUrl(env: SiteUrlSettings, logger: Pick<Logger, "warn">): boolean {
  const problem = siteUrlProblem(env);
  if (problem) logger.warn(`WARNING: ${problem}`);
  return problem !== undefined;
}

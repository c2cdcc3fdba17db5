import { describe, expect, it, vi } from "vitest";
import { parseEnv } from "~/env.server";
import { calendarConfig, publicConfigOf, siteUrlProblem, warnAboutSiteUrl } from "./config.server";

const GOOGLE = { GOOGLE_CALENDAR_ID: "c_founders.circle@group.calendar.google.com", GOOGLE_API_KEY: "k" };

describe("calendarConfig", () => {
  it("embeds GOOGLE_CALENDAR_ID's calendar in New York time", () => {
    const { embedUrl, source } = calendarConfig(parseEnv(GOOGLE), undefined);
    expect(source).toBe("google");
    const url = new URL(embedUrl!);
    expect(url.origin + url.pathname).toBe("https://calendar.google.com/calendar/embed");
    expect(url.searchParams.get("src")).toBe(GOOGLE.GOOGLE_CALENDAR_ID);
    expect(url.searchParams.get("ctz")).toBe("America/New_York");
    expect(embedUrl).toContain("src=c_founders.circle%40group.calendar.google.com");
  });

  it("prefers the embed URL an operator set in content/site.yaml", () => {
    const chosen = "https://calendar.google.com/calendar/embed?src=a%40b.c&src=d%40e.f&ctz=America%2FNew_York";
    expect(calendarConfig(parseEnv(GOOGLE), chosen)).toEqual({ source: "google", embedUrl: chosen });
    expect(calendarConfig(parseEnv({}), chosen)).toEqual({ source: "sample", embedUrl: chosen });
  });

  it("embeds nothing for the bundled sample or an .ics feed", () => {
    expect(calendarConfig(parseEnv({}), undefined)).toEqual({ source: "sample" });
    expect(calendarConfig(parseEnv({ CALENDAR_ICS_URL: "https://example.org/feed.ics" }), undefined)).toEqual({ source: "ics" });
  });
});

describe("siteUrlProblem", () => {
  it.each([
    [{ NODE_ENV: "production" as const, SITE_URL: undefined }, /^SITE_URL IS NOT SET: .*og:image.*sitemap.*http:\/\/localhost:3000/],
    [{ NODE_ENV: "production" as const, SITE_URL: "http://localhost:3000" }, /^SITE_URL POINTS AT THIS MACHINE \(localhost\)/],
    [{ NODE_ENV: "production" as const, SITE_URL: "http://127.0.0.1:8080" }, /THIS MACHINE \(127\.0\.0\.1\)/],
    [{ NODE_ENV: "production" as const, SITE_URL: "http://[::1]" }, /THIS MACHINE/],
    [{ NODE_ENV: "production" as const, SITE_URL: "https://founders.example.org" }, undefined],
    [{ NODE_ENV: "development" as const, SITE_URL: undefined }, undefined],
    [{ NODE_ENV: "test" as const, SITE_URL: undefined }, undefined],
    // A preview instance links to its own address, whatever SITE_URL says.
    [{ NODE_ENV: "production" as const, SITE_URL: undefined, previewUrl: "https://founders-site-pr-7.onrender.com" }, undefined],
  ])("%o", (env, expected) => {
    const problem = siteUrlProblem(env);
    if (expected) expect(problem).toMatch(expected);
    else expect(problem).toBeUndefined();
  });

  it("is logged at warn level, loudly, only when there is a problem", () => {
    const logger = { warn: vi.fn() };
    expect(warnAboutSiteUrl({ NODE_ENV: "production", SITE_URL: undefined }, logger)).toBe(true);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/^WARNING: SITE_URL IS NOT SET/));
    logger.warn.mockClear();
    expect(warnAboutSiteUrl({ NODE_ENV: "production", SITE_URL: "https://founders.example.org" }, logger)).toBe(false);
    expect(logger.warn).not.toHaveBeenCalled();
  });
});

describe("publicConfigOf: the live site and a preview instance", () => {
  const LIVE = { SITE_URL: "https://founders.example.org/" };
  const PREVIEW = { ...LIVE, IS_PULL_REQUEST: "true", RENDER_EXTERNAL_URL: "https://founders-site-pr-7.onrender.com" };

  it("the live site: SITE_URL, and no preview key at all (its pages' data stay byte for byte as they were)", () => {
    const config = publicConfigOf(parseEnv({ ...LIVE, IS_PULL_REQUEST: "false", RENDER_EXTERNAL_URL: PREVIEW.RENDER_EXTERNAL_URL }));
    expect(config.siteUrl).toBe("https://founders.example.org");
    expect(config).not.toHaveProperty("preview");
  });

  it("a preview instance: its own address in place of SITE_URL, and marked as a preview", () => {
    const config = publicConfigOf(parseEnv(PREVIEW));
    expect(config.siteUrl).toBe("https://founders-site-pr-7.onrender.com");
    expect(config.preview).toBe(true);
  });
});

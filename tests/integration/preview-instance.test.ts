// A preview instance of a change (Render's IS_PULL_REQUEST=true with RENDER_EXTERNAL_URL): every page
// says it is a preview, every answer says noindex, the sitemap lists nothing, links point at its own
// address and the content editor is off, though it inherits the live service's variables (SITE_URL,
// the repository, the OAuth app). And the live site, read from the run's shared server: no banner,
// no noindex, one stored answer (one ETag) per page for every visitor.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_BANNER_LABEL } from "~/components/preview-banner";
import type { EventsResponse } from "~/events/model";
import { pageRoutes, pathOf } from "~/site-routes";
import { ADMIN_OFF_HEADING } from "../../server/preview-instance";
import { NO_SOURCE_NO_PROXY, SHARED_SERVER_ENV } from "../support/environments";
import { describeReport, validateHtml } from "../support/html-validity";
import { rawRequest } from "../support/raw-http";
import { sharedServer } from "../support/shared-server";
import { startServer, type RunningServer } from "../support/start-server";

const PREVIEW_URL = "https://founders-site-pr-7.onrender.com";
const LIVE_URL = "https://founders.example.org";
const BANNER = `<section aria-label="${PREVIEW_BANNER_LABEL}"`;

/** The pages without a parameter (every one the route table lists), and the 404 page. */
const STATIC_PAGES = pageRoutes.filter((route) => !route.pattern.includes(":")).map(pathOf);
const NOT_FOUND = "/no-such-page";

/** Two visitors who differ in everything a per-visitor page could read: the answer must not. */
const VISITORS: Record<string, string>[] = [
  { "User-Agent": "Mozilla/5.0 (iPhone)", "Accept-Language": "fr-FR", Cookie: "a=1", "Accept-Encoding": "br" },
  { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64)", "Accept-Language": "en-US", "Accept-Encoding": "br" },
];

/** Every absolute link of a page's head a crawler or a link preview follows: canonical, og:url, og:image, twitter:image. */
function shareLinks(html: string): string[] {
  const head = html.slice(0, html.indexOf("</head>"));
  return [
    ...head.matchAll(/<(?:link rel="canonical" href|meta (?:property|name)="(?:og:url|og:image|twitter:image)" content)="([^"]*)"/g),
  ].map((match) => match[1]!);
}

describe("a preview instance", () => {
  let server: RunningServer;
  /** Every HTML page: the static ones, the past tab, an archive month, an event's page and the 404. */
  let pages: string[];

  beforeAll(async () => {
    server = await startServer({
      ...NO_SOURCE_NO_PROXY,
      // As Render starts one: its own flag and address, and the live service's variables, copied.
      IS_PULL_REQUEST: "true",
      RENDER_EXTERNAL_URL: PREVIEW_URL,
      SITE_URL: LIVE_URL,
      CONTENT_REPOSITORY: "our-org/founders-site",
      GITHUB_OAUTH_CLIENT_ID: "Ov23li-preview-test",
      GITHUB_OAUTH_CLIENT_SECRET: "preview-test-secret",
    });
    const { events } = (await (await fetch(`${server.url}/api/calendar/events`)).json()) as EventsResponse;
    const month = /href="(\/events\/month\/[^"]+)"/.exec(await (await fetch(`${server.url}/events`)).text())?.[1];
    expect(events.length).toBeGreaterThan(0);
    expect(month).toBeDefined();
    pages = [...STATIC_PAGES, "/events?tab=past", month!, `/events/${events[0]!.id}`, NOT_FOUND];
  });
  afterAll(() => server?.stop());

  it("every page: the banner first, noindex, and links on its own address only (never the live site's)", async () => {
    expect(STATIC_PAGES).toEqual(expect.arrayContaining(["/", "/apply", "/about", "/contact", "/events", "/portal"]));
    for (const path of pages) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(path === NOT_FOUND ? 404 : 200);
      expect(res.headers.get("x-robots-tag"), path).toBe("noindex");
      const html = await res.text();
      // In the server HTML, before the header: read without a script, and first.
      expect(html.indexOf(BANNER), path).toBeGreaterThan(-1);
      expect(html.indexOf(BANNER), path).toBeLessThan(html.indexOf("<header"));
      expect(html, path).toContain("Preview of a change, not the live site.");
      const links = shareLinks(html);
      expect(links.length, path).toBeGreaterThanOrEqual(path === NOT_FOUND ? 2 : 4);
      for (const link of links) expect(link.startsWith(`${PREVIEW_URL}/`), `${path}: ${link}`).toBe(true);
      expect(html, path).not.toContain(new URL(LIVE_URL).host);
    }
  });

  it("its pages stay valid HTML with the banner, and stored: one ETag for every visitor", async () => {
    const report = await validateHtml(await (await fetch(`${server.url}/`)).text(), "/");
    expect(describeReport(report)).toEqual([]);
    const [first, second] = await Promise.all(VISITORS.map((headers) => rawRequest(server.url, "/about", { headers })));
    expect(first!.headers.etag).toBeDefined();
    expect(second!.headers.etag).toBe(first!.headers.etag);
    expect(second!.bytes.equals(first!.bytes)).toBe(true);
  });

  it("every other answer says noindex too: files, data, probes, errors", async () => {
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(await (await fetch(`${server.url}/`)).text())?.[1];
    expect(asset).toBeDefined();
    const answers: Array<[string, number, RequestInit?]> = [
      ["/robots.txt", 200],
      ["/sitemap.xml", 200],
      ["/api/calendar/events", 200],
      ["/api/calendar/feed.ics", 200],
      ["/favicon.svg", 200],
      [asset!, 200],
      ["/healthz", 200],
      ["/readyz", 200],
      ["/about/", 301],
      ["/about", 405, { method: "POST" }],
    ];
    for (const [path, status, init] of answers) {
      const res = await fetch(`${server.url}${path}`, { redirect: "manual", ...init });
      expect(res.status, path).toBe(status);
      expect(res.headers.get("x-robots-tag"), path).toBe("noindex");
    }
  });

  it("lists nothing in its sitemap, and its robots.txt invites no crawler", async () => {
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain("<urlset");
    expect(sitemap).not.toContain("<url>");
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toBe("User-agent: *\nDisallow: /\n");
  });

  it("/admin, its configuration and its sign-in's addresses answer that the editor is off", async () => {
    for (const path of ["/admin", "/admin/", "/admin/auth", "/admin/auth/callback?code=c&state=s", "/admin/auth/token"]) {
      const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("x-robots-tag"), path).toBe("noindex");
      expect(res.headers.get("set-cookie"), path).toBeNull();
      const html = await res.text();
      expect(html, path).toContain(ADMIN_OFF_HEADING);
      // Where the editor is: the live site's.
      expect(html, path).toContain(`<a href="${LIVE_URL}/admin">`);
      expect(html, path).not.toContain("sveltia");
    }
    const config = await fetch(`${server.url}/admin/config.json`);
    expect(config.status).toBe(404);
    expect(((await config.json()) as { error: string }).error).toContain(ADMIN_OFF_HEADING);
  });
});

describe("the live site (IS_PULL_REQUEST unset: the run's shared server)", () => {
  const live = sharedServer();

  it("no banner and no noindex on any page, and one stored answer (one ETag) per page for every visitor", async () => {
    expect(SHARED_SERVER_ENV.SITE_URL).toBe(LIVE_URL);
    for (const path of [...STATIC_PAGES, NOT_FOUND]) {
      const [first, second] = await Promise.all(VISITORS.map((headers) => rawRequest(live.url, path, { headers })));
      expect(first!.status, path).toBe(path === NOT_FOUND ? 404 : 200);
      expect(first!.headers["x-robots-tag"], path).toBeUndefined();
      if (path !== NOT_FOUND) expect(first!.headers.etag, path).toMatch(/^"[\w-]+"$/);
      expect(second!.headers.etag, path).toBe(first!.headers.etag);
      expect(second!.bytes.equals(first!.bytes), path).toBe(true);
      const html = (await rawRequest(live.url, path)).body;
      expect(html, path).not.toContain(PREVIEW_BANNER_LABEL);
      for (const link of shareLinks(html)) expect(link.startsWith(`${LIVE_URL}/`), `${path}: ${link}`).toBe(true);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExpectingFailure, startServer, type RunningServer } from "../support/start-server";

// The built production server, read as a crawler or a script-less browser would: raw HTML only.
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    SITE_URL: "https://founders.example.org",
    MEMBER_LOGIN_URL: "https://provider.example.net/login",
    APPLICATION_URL: "https://provider.example.net/apply",
    CONTACT_SURVEY_URL: "https://provider.example.net/contact",
  });
});
afterAll(() => server?.stop());

async function get(path: string, init?: RequestInit) {
  const res = await fetch(`${server.url}${path}`, { redirect: "manual", ...init });
  return { res, body: await res.text() };
}

const pages: Array<[path: string, texts: string[]]> = [
  [
    "/",
    [
      "Join the private network for founders",
      "Apply to Join",
      "Featured founders",
      "Starting a company is lonely",
      "Member Benefits",
      "Maya Okafor",
    ],
  ],
  ["/apply", ["Apply to Join", "Complete the application", "Review process", "Welcome aboard", "Start Application"]],
  ["/about", ["Mission &amp; Values", "Global Leadership Board", "The Columbia Advantage", "not-for-profit", "not affiliated"]],
  ["/contact", ["Get In Touch", "Full Name", "Email", "Message", "CONTACT US"]],
  ["/events", ["Member Events", "Upcoming", "Past", "Shared calendar"]],
  [
    "/portal",
    ["Member Portal", "Member directory", "Exclusive content", "Event registration", "Partner discounts", "Access Member Portal"],
  ],
];

describe("pages", () => {
  it.each(pages)("%s answers 200 with its content in the server HTML", async (path, texts) => {
    const { res, body } = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    for (const text of texts) expect(body).toContain(text);
  });

  it.each(pages.map(([path]) => path))("%s has its own title, description, canonical and social tags", async (path) => {
    const { body } = await get(path);
    expect(body).toMatch(/<title>[^<]+<\/title>/);
    expect(body).toMatch(/<meta name="description" content="[^"]+"/);
    expect(body).toContain(`<link rel="canonical" href="https://founders.example.org${path}"`);
    for (const tag of ["og:title", "og:description", "og:image", "og:url"]) expect(body).toContain(`property="${tag}"`);
    for (const tag of ["twitter:card", "twitter:title", "twitter:image"]) expect(body).toContain(`name="${tag}"`);
  });

  it("gives every page a different title and description", async () => {
    const bodies = await Promise.all(pages.map(([path]) => get(path).then((r) => r.body)));
    const titles = bodies.map((b) => /<title>([^<]+)<\/title>/.exec(b)?.[1]);
    const descriptions = bodies.map((b) => /<meta name="description" content="([^"]+)"/.exec(b)?.[1]);
    expect(new Set(titles).size).toBe(pages.length);
    expect(new Set(descriptions).size).toBe(pages.length);
  });

  it("uses the configured provider URLs, opening them in new tabs", async () => {
    const home = (await get("/")).body;
    expect(home).toMatch(/<a href="https:\/\/provider\.example\.net\/login" target="_blank" rel="noopener noreferrer"/);
    expect((await get("/apply")).body).toContain('href="https://provider.example.net/apply"');
    expect((await get("/contact")).body).toContain('action="https://provider.example.net/contact"');
  });

  it.each(pages.map(([path]) => path))("%s: every new-tab link carries rel=noopener noreferrer", async (path) => {
    const { body } = await get(path);
    const tags = body.match(/<(a|form)\b[^>]*target="_blank"[^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toContain('rel="noopener noreferrer"');
  });

  it("marks the current page's link in the server HTML", async () => {
    const { body } = await get("/about");
    expect(body).toMatch(/<a aria-current="page"[^>]*href="\/about"[^>]*>About Us<\/a>/);
  });

  it("answers applicants on /apply: who is eligible, dues, review time, each step's details, a FAQ", async () => {
    const { body } = await get("/apply");
    for (const text of ["Who can apply", "Dues", "Review takes", "Frequently asked questions", "About 15 minutes"])
      expect(body).toContain(text);
    expect(body.match(/<li class="flex flex-col gap-4 rounded-2xl/g)).toHaveLength(3);
  });
});

describe("unknown paths", () => {
  it.each(["/nope", "/about/extra", "/events/2020", "/.env"])("%s answers 404 with the not-found card", async (path) => {
    const { res, body } = await get(path);
    expect(res.status).toBe(404);
    expect(body).toContain("404 Page Not Found");
    expect(body).toContain("Did you forget to add the page to the router?");
    expect(body).toContain('content="noindex"');
  });
});

describe("sitemap and robots", () => {
  it("lists every page in /sitemap.xml", async () => {
    const { res, body } = await get("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/xml/);
    for (const [path] of pages) expect(body).toContain(`<loc>https://founders.example.org${path}</loc>`);
  });

  it("points /robots.txt at the sitemap", async () => {
    const { res, body } = await get("/robots.txt");
    expect(res.status).toBe(200);
    expect(body).toContain("Sitemap: https://founders.example.org/sitemap.xml");
  });
});

describe("static files", () => {
  it("serves hashed assets as immutable and shipped images", async () => {
    const { body } = await get("/");
    const asset = /\/assets\/[\w.-]+\.css/.exec(body)?.[0];
    expect(asset).toBeDefined();
    const res = await fetch(`${server.url}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/immutable/);
    for (const path of ["/og-image.png", "/favicon.svg", "/images/tiles/core-group.webp"]) {
      expect((await fetch(`${server.url}${path}`)).status).toBe(200);
    }
  });

  it("compresses HTML and hides the framework banner", async () => {
    const { res } = await get("/", { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("has written nothing to stderr", () => {
    expect(server.stderr()).toBe("");
  });
});

describe("start-up configuration", () => {
  it("refuses to start when MEMBER_LOGIN_URL and SITE_URL are not http(s) URLs, naming both", async () => {
    const { code, stderr } = await startExpectingFailure({ MEMBER_LOGIN_URL: "javascript:alert(1)", SITE_URL: "javascript:alert(2)" });
    expect(code).toBe(1);
    for (const name of ["MEMBER_LOGIN_URL", "SITE_URL"]) expect(stderr).toContain(`  ${name}: must be an absolute http(s) URL`);
    expect(stderr).not.toContain("alert(");
    expect(stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });
});

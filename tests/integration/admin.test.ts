// The content editor at /admin on the built server: its page and generated configuration, its own
// policy (the site's pages keep theirs), its files from the build (no CDN), kept out of search.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorConfig } from "~/content/editor-config.server";
import { sharedServer } from "../support/shared-server";
import { startServer, type RunningServer } from "../support/start-server";

const REPOSITORY = {
  CONTENT_REPOSITORY: "founders/site",
  CONTENT_BRANCH: "content",
  SITE_URL: "https://founders.example.org",
  // Token sign-in only, whatever the shell running the tests has set.
  GITHUB_OAUTH_CLIENT_ID: "",
  GITHUB_OAUTH_CLIENT_SECRET: "",
};

/** The policy as a map from directive to its sources. */
function parseCsp(header: string | null): Map<string, string[]> {
  expect(typeof header).toBe("string");
  return new Map(
    (header ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .map(([name = "", ...sources]) => [name, sources]),
  );
}

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("/admin with CONTENT_REPOSITORY set", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(REPOSITORY);
  });
  afterAll(() => server.stop());
  const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, { redirect: "manual", ...init });

  it("serves the editor's page: noindex, its module from our build, its configuration's address", async () => {
    const res = await get("/admin");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<link rel="cms-config-url" type="application/json" href="/admin/config.json">');
    const [, entry] =
      /import CMS from "(\/assets\/sveltia-cms-[\d.]+\/index\.js)";import \{registerPreviews\} from "\/assets\/content-preview\/[\w-]+\.js";registerPreviews\(CMS\);CMS\.init\(\);/.exec(
        html,
      ) ?? [];
    expect(entry).toBeDefined();
    // No CDN: every script comes from us.
    expect(html).not.toMatch(/https?:\/\/(?!founders)/);

    const script = await get(entry!);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^(text|application)\/javascript/);
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const source = await script.text();
    // Its fonts point at the copies shipped beside it, not at jsDelivr.
    expect(source).not.toContain("cdn.jsdelivr.net");
    const fonts = [...source.matchAll(/url\((\/assets\/sveltia-cms-[\d.]+\/assets\/[\w-]+\.woff2)\)/g)].map((m) => m[1]!);
    expect(new Set(fonts).size).toBe(3);
    for (const font of new Set(fonts)) {
      const res = await get(font);
      expect(res.status, font).toBe(200);
      expect(res.headers.get("content-type"), font).toBe("font/woff2");
    }
    // Its static import too.
    for (const [, chunk] of source.matchAll(/from"\.\/(chunks\/[\w-]+\.js)"/g))
      expect((await get(entry!.replace("index.js", chunk!))).status).toBe(200);
  });

  it("serves the preview pane's module, and Immutable.js by the bare name the editor imports it by, from our build", async () => {
    const html = await (await get("/admin")).text();
    const importMap = JSON.parse(/<script type="importmap">([\s\S]*?)<\/script>/.exec(html)![1]!) as { imports: Record<string, string> };
    expect(Object.keys(importMap.imports)).toEqual(["immutable"]);
    const preview = /import \{registerPreviews\} from "([^"]+)"/.exec(html)![1]!;
    for (const path of [preview, importMap.imports.immutable!]) {
      expect(path).toMatch(/^\/assets\/content-preview\/[\w-]+\.js$/);
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^(text|application)\/javascript/);
      expect(res.headers.get("cache-control"), path).toBe("public, max-age=31536000, immutable");
    }
  });

  it("gives the page a policy of its own, the loosest the editor needs and no looser", async () => {
    const res = await get("/admin");
    const html = await res.text();
    const csp = parseCsp(res.headers.get("content-security-policy"));
    const inline = /<script type="module">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(Object.fromEntries(csp)).toEqual({
      "default-src": ["'self'"],
      "script-src": ["'self'", sha256(importMap), sha256(inline)],
      "script-src-attr": ["'none'"],
      "style-src": ["'self'", "'unsafe-inline'"],
      "img-src": ["'self'", "blob:", "data:", "https://avatars.githubusercontent.com"],
      "font-src": ["'self'"],
      "connect-src": ["'self'", "blob:", "data:", "https://api.github.com", "https://www.githubstatus.com"],
      // The preview pane only: the editor writes it into an iframe as a blob: document.
      "frame-src": ["blob:"],
      "form-action": ["'none'"],
      "object-src": ["'none'"],
      "base-uri": ["'self'"],
      "frame-ancestors": ["'none'"],
      "manifest-src": ["'self'"],
      "worker-src": ["'none'"],
    });
  });

  it("lets the editor read an image from the clipboard (its Paste Image button), and nothing else the site refuses", async () => {
    const policy = (await get("/admin")).headers.get("permissions-policy");
    const site = (await get("/")).headers.get("permissions-policy");
    expect(policy).toContain("clipboard-read=(self)");
    expect(site).toContain("clipboard-read=()");
    expect(policy).toBe(site!.replace("clipboard-read=()", "clipboard-read=(self)"));
  });

  it("keeps other sites' windows from holding a handle on the editor; the public pages, which hold no visitor state, go without", async () => {
    expect((await get("/admin")).headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect((await get("/")).headers.get("cross-origin-opener-policy")).toBeNull();
  });

  it("offers only the token without the OAuth variables: no sign-in addresses (tests/integration/github-oauth.test.ts has them)", async () => {
    expect((await get("/admin/auth?provider=github")).status).toBe(404);
    expect((await get("/admin/auth/callback?code=a&state=b")).status).toBe(404);
  });

  it("leaves the site's pages their own strict policy", async () => {
    for (const path of ["/", "/about", "/events", "/no-such-page"]) {
      const csp = parseCsp((await get(path)).headers.get("content-security-policy"));
      expect(csp.get("style-src"), path).toEqual(["'self'"]);
      expect(csp.get("connect-src"), path).toEqual(["'self'"]);
      expect(csp.get("img-src"), path).toEqual(["'self'"]);
    }
  });

  it("serves the configuration generated from the content schema, for this repository and branch", async () => {
    const res = await get("/admin/config.json?_=1732470000000");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(await res.json()).toEqual(
      JSON.parse(
        JSON.stringify(
          editorConfig({
            repository: "founders/site",
            branch: "content",
            siteUrl: "https://founders.example.org",
            siteName: "Founders Circle",
          }),
        ),
      ),
    );
  });

  it("answers again with 304 for the same ETag, and HEAD without a body", async () => {
    const first = await get("/admin");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get("/admin", { headers: { "If-None-Match": etag! } })).status).toBe(304);
    const head = await get("/admin", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("sends /admin/ to /admin, and is neither in the sitemap nor allowed by robots.txt", async () => {
    const slash = await get("/admin/");
    expect(slash.status).toBe(301);
    expect(slash.headers.get("location")).toBe("/admin");
    const robots = await (await get("/robots.txt")).text();
    expect(robots).toMatch(/^Disallow: \/admin$/m);
    expect(await (await get("/sitemap.xml")).text()).not.toContain("/admin");
  });

  it("refuses other methods, like every address", async () => {
    expect((await get("/admin", { method: "POST" })).status).toBe(405);
  });
});

describe("/admin without CONTENT_REPOSITORY", () => {
  const server = sharedServer();

  it("says how to set the editor up, and loads no editor", async () => {
    const res = await fetch(`${server.url}/admin`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("The content editor is not set up yet");
    expect(html).toContain("<code>CONTENT_REPOSITORY</code>");
    expect(html).not.toContain("<script");
    const config = await fetch(`${server.url}/admin/config.json`);
    expect(config.status).toBe(404);
    expect(await config.json()).toEqual({ error: "The content editor is not set up: CONTENT_REPOSITORY is not set." });
  });
});

// Security headers on every kind of response of the built server, and every inline script of a page
// allowed by its sha256 hash (no nonce: the same page is the same bytes for every visitor).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_SOURCE_NO_PROXY } from "../support/environments";
import { rawRequest, type RawAnswer } from "../support/raw-http";
import { sharedServer } from "../support/shared-server";
import { startServer, type RunningServer } from "../support/start-server";

const NO_SOURCE = { ...NO_SOURCE_NO_PROXY, CONTACT_SURVEY_URL: "" };
const PAGES = ["/", "/apply", "/about", "/contact", "/events", "/portal"];

/** The policy as a map from directive to its sources. */
function parseCsp(header: string | string[] | undefined): Map<string, string[]> {
  expect(typeof header).toBe("string");
  const directives = new Map<string, string[]>();
  for (const part of (header as string).split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/** Scripts the browser would execute (no type, or a JavaScript one); JSON-LD data blocks are not scripts. */
function executableScriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>/gi)]
    .map((m) => m[1] ?? "")
    .filter((attrs) => {
      const type = /\btype="([^"]*)"/i.exec(attrs)?.[1];
      return type === undefined || type === "" || type === "module" || /javascript/i.test(type);
    });
}

function expectSecurityHeaders(answer: RawAnswer, label: string, scriptHashes = 0) {
  const h = answer.headers;
  const csp = parseCsp(h["content-security-policy"]);
  expect(csp.get("default-src"), label).toEqual(["'self'"]);
  const scriptSrc = csp.get("script-src") ?? [];
  expect(scriptSrc[0], label).toBe("'self'");
  for (const source of scriptSrc.slice(1)) expect(source, label).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
  if (scriptHashes === 0) expect(scriptSrc, label).toHaveLength(1);
  else expect(scriptSrc.length, label).toBeGreaterThanOrEqual(1 + scriptHashes);
  expect(csp.get("script-src-attr"), label).toEqual(["'none'"]);
  expect(csp.get("style-src")?.[0], label).toBe("'self'");
  for (const sources of csp.values()) {
    expect(sources, label).not.toContain("'unsafe-inline'");
    expect(sources, label).not.toContain("'unsafe-eval'");
    expect(sources, label).not.toContain("*");
    expect(sources, label).not.toContain("data:");
  }
  expect(csp.get("object-src"), label).toEqual(["'none'"]);
  expect(csp.get("base-uri"), label).toEqual(["'self'"]);
  expect(csp.get("frame-ancestors"), label).toEqual(["'none'"]);
  expect(csp.get("frame-src"), label).toEqual(["'none'"]);
  expect(csp.get("form-action"), label).toEqual(["'self'", "https://members.example.org"]);
  for (const directive of ["img-src", "connect-src", "font-src"]) expect(csp.get(directive), `${label} ${directive}`).toEqual(["'self'"]);
  // Plain HTTP: no upgrade, no HSTS.
  expect(csp.has("upgrade-insecure-requests"), label).toBe(false);
  expect(h["strict-transport-security"], label).toBeUndefined();

  expect(h["x-content-type-options"], label).toBe("nosniff");
  expect(h["referrer-policy"], label).toBe("strict-origin-when-cross-origin");
  // None on the public pages (server/security.ts says why); the editor keeps "same-origin" (admin.test.ts).
  expect(h["cross-origin-opener-policy"], label).toBeUndefined();
  expect(h["cross-origin-resource-policy"], label).toBe("same-origin");
  expect(h["x-frame-options"], label).toBe("DENY");
  expect(h["x-powered-by"], label).toBeUndefined();
  expect(h["x-request-id"], label).toMatch(/^[0-9a-f-]{36}$/);
  const permissions = String(h["permissions-policy"]);
  for (const feature of ["camera", "microphone", "geolocation", "payment", "usb", "browsing-topics", "interest-cohort"]) {
    expect(permissions, `${label} ${feature}`).toContain(`${feature}=()`);
  }
}

describe("security headers", () => {
  // The default configuration (NO_SOURCE's: the sample calendar, the shipped survey provider, no proxy).
  const server = sharedServer();
  let asset: string;
  beforeAll(async () => {
    const home = await rawRequest(server.url, "/");
    asset = /\/assets\/[\w.-]+\.js/.exec(home.body)?.[0] ?? "";
    expect(asset).not.toBe("");
  });

  // The last number: the fewest inline scripts (hashes) the answer's policy allows.
  const cases: Array<[string, () => string, number, { method?: string }?, number?]> = [
    ["a page", () => "/", 200, {}, 4],
    ["the events page", () => "/events", 200, {}, 4],
    ["a hashed asset", () => asset, 200],
    ["a public file", () => "/favicon.svg", 200],
    ["the API", () => "/api/calendar/events", 200],
    ["an API 404", () => "/api/calendar/events/unknown.ics", 404],
    ["the 404 page", () => "/this-page-does-not-exist", 404, {}, 4],
    ["a missing asset", () => "/assets/missing.js", 404],
    ["a malformed path (400)", () => "/%", 400],
    ["a refused method (405)", () => "/", 405, { method: "DELETE" }],
    ["OPTIONS", () => "/", 204, { method: "OPTIONS" }],
    ["a HEAD of a page", () => "/about", 200, { method: "HEAD" }, 4],
    ["the liveness probe", () => "/healthz", 200],
    // Behind the front chain: the one kind of answer Express still makes in production.
    ["React Router's route discovery", () => "/__manifest?p=%2Fabout&version=stale", 204],
  ];

  it.each(cases)("on %s", async (label, target, status, options, scriptHashes) => {
    const answer = await rawRequest(server.url, target(), options);
    expect(answer.status).toBe(status);
    expectSecurityHeaders(answer, label, scriptHashes);
  });

  it("on a 414 (an over-long query string)", async () => {
    const answer = await rawRequest(server.url, `/events?q=${"a".repeat(3000)}`);
    expect(answer.status).toBe(414);
    expectSecurityHeaders(answer, "414");
  });

  it.each([...PAGES, "/this-page-does-not-exist"])(
    "%s: exactly its inline scripts' hashes are allowed, and there are no inline styles",
    async (path) => {
      const answer = await rawRequest(server.url, path);
      const allowed = parseCsp(answer.headers["content-security-policy"]).get("script-src")?.slice(1) ?? [];
      const inline = [...answer.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
        ([, attrs]) => !/\ssrc=/.test(attrs ?? ""),
      );
      // At load: our starter only; the inert ones (React Router's context, data stream and module
      // entry) run later with the same text, so the same hashes.
      expect(executableScriptTags(answer.body)).toHaveLength(1);
      expect(answer.body.match(/<script[^>]* type="text\/x-deferred-(?:script|module)"/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
      expect(new Set(allowed)).toEqual(new Set(inline.map(([, , text]) => sha256(text ?? ""))));
      expect(answer.body).not.toContain("nonce=");
      // style-src has no 'unsafe-inline': no style attributes, no <style> elements.
      expect(answer.body).not.toMatch(/<[a-z][^>]*\sstyle=/i);
      expect(answer.body).not.toMatch(/<style\b/i);
    },
  );

  it("gives every visitor the same page, headers included", async () => {
    const first = await rawRequest(server.url, "/about");
    const second = await rawRequest(server.url, "/about?utm_source=newsletter");
    expect(second.body).toBe(first.body);
    expect(second.headers["content-security-policy"]).toBe(first.headers["content-security-policy"]);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it("does not believe X-Forwarded-Proto without TRUST_PROXY: no HSTS", async () => {
    const answer = await rawRequest(server.url, "/", { headers: { "X-Forwarded-Proto": "https" } });
    expect(answer.headers["strict-transport-security"]).toBeUndefined();
    expect(parseCsp(answer.headers["content-security-policy"]).has("upgrade-insecure-requests")).toBe(false);
  });
});

describe("behind a trusted proxy, with another survey provider", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...NO_SOURCE, TRUST_PROXY: "loopback", CONTACT_SURVEY_URL: "https://forms.example.com/contact?ref=site" });
  });
  afterAll(() => server?.stop());

  it("sends HSTS and upgrade-insecure-requests only for HTTPS requests", async () => {
    const https = await rawRequest(server.url, "/", { headers: { "X-Forwarded-Proto": "https" } });
    expect(https.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(parseCsp(https.headers["content-security-policy"]).get("upgrade-insecure-requests")).toEqual([]);
    const http = await rawRequest(server.url, "/", { headers: { "X-Forwarded-Proto": "http" } });
    expect(http.headers["strict-transport-security"]).toBeUndefined();
    expect(parseCsp(http.headers["content-security-policy"]).has("upgrade-insecure-requests")).toBe(false);
  });

  it("lets forms go to the configured survey's origin", async () => {
    const answer = await rawRequest(server.url, "/contact");
    expect(parseCsp(answer.headers["content-security-policy"]).get("form-action")).toEqual(["'self'", "https://forms.example.com"]);
    expect(answer.body).toContain('action="https://forms.example.com/contact?ref=site"');
  });
});

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cspDirectives, cspHeader, inlineScriptHashes, originOf, PERMISSIONS_POLICY } from "./security";

const options = { frameOrigins: ["https://calendar.google.com"], formOrigins: ["https://members.example.org"], development: false };
const directives = (...args: Parameters<typeof cspDirectives>) => new Map(cspDirectives(...args));

describe("cspDirectives", () => {
  it("allows only our files and inline scripts by their hashes in production", () => {
    const policy = directives(options, { https: false, scriptHashes: ["'sha256-abc='"] });
    expect(policy.get("script-src")).toEqual(["'self'", "'sha256-abc='"]);
    expect(Object.fromEntries(policy)).toMatchObject({
      "default-src": ["'self'"],
      "style-src": ["'self'"],
      "object-src": ["'none'"],
      "base-uri": ["'self'"],
      "frame-ancestors": ["'none'"],
      "frame-src": ["https://calendar.google.com"],
      "form-action": ["'self'", "https://members.example.org"],
      "connect-src": ["'self'"],
      "img-src": ["'self'"],
      "font-src": ["'self'"],
    });
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
    expect(JSON.stringify([...policy])).not.toMatch(/unsafe|nonce/);
  });

  it("allows no inline script at all without hashes", () => {
    expect(directives(options, { https: false }).get("script-src")).toEqual(["'self'"]);
  });

  it("frames nothing when no calendar is configured, and upgrades requests over HTTPS", () => {
    const policy = directives({ ...options, frameOrigins: [] }, { https: true });
    expect(policy.get("frame-src")).toEqual(["'none'"]);
    expect(policy.get("upgrade-insecure-requests")).toEqual([]);
    expect(cspHeader(cspDirectives(options, { https: true }))).toMatch(/; upgrade-insecure-requests$/);
  });

  it("relaxes scripts, styles and connections for Vite in development only", () => {
    const policy = directives({ ...options, development: true }, { https: false });
    expect(policy.get("script-src")).toEqual(["'self'", "'unsafe-inline'", "'unsafe-eval'"]);
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get("connect-src")).toEqual(["'self'", "ws:", "wss:"]);
  });
});

describe("inlineScriptHashes", () => {
  const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

  it("hashes each inline script's exact text once, and skips scripts with a src", () => {
    const html = [
      "<script>window.a = 1;</script>",
      '<script type="module" src="/assets/x.js"></script>',
      '<script type="text/x-deferred-module" data-deferred-module="">import "/a.js";\n</script>',
      "<SCRIPT>window.a = 1;</SCRIPT>",
      "<script>é</script>",
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([sha("window.a = 1;"), sha('import "/a.js";\n'), sha("é")]);
  });

  it("finds none in a page without inline scripts", () => {
    expect(inlineScriptHashes("<p>script</p>")).toEqual([]);
  });
});

describe("originOf", () => {
  it.each([
    ["https://calendar.google.com/calendar/embed?src=x", "https://calendar.google.com"],
    ["http://localhost:9000/survey", "http://localhost:9000"],
    ["javascript:alert(1)", undefined],
    ["not a url", undefined],
    [undefined, undefined],
  ])("%s → %s", (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });
});

it("turns off the features the site does not use", () => {
  for (const feature of ["camera", "microphone", "geolocation", "payment", "usb", "browsing-topics", "interest-cohort"]) {
    expect(PERMISSIONS_POLICY).toContain(`${feature}=()`);
  }
});

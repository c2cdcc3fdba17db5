import { describe, expect, it } from "vitest";
import { cspDirectives, originOf, PERMISSIONS_POLICY } from "./security";

const options = { frameOrigins: ["https://calendar.google.com"], formOrigins: ["https://members.example.org"], development: false };

describe("cspDirectives", () => {
  it("allows only our files and nonced inline scripts in production", () => {
    const directives = cspDirectives(options, false);
    expect(directives.scriptSrc?.[0]).toBe("'self'");
    expect(directives.scriptSrc).toHaveLength(2);
    expect(typeof directives.scriptSrc?.[1]).toBe("function");
    expect(directives).toMatchObject({
      defaultSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors: ["'none'"],
      frameSrc: ["https://calendar.google.com"],
      formAction: ["'self'", "https://members.example.org"],
      connectSrc: ["'self'"],
      imgSrc: ["'self'"],
      fontSrc: ["'self'"],
      upgradeInsecureRequests: null,
    });
    expect(JSON.stringify(directives)).not.toMatch(/unsafe/);
  });

  it("frames nothing when no calendar is configured, and upgrades requests over HTTPS", () => {
    const directives = cspDirectives({ ...options, frameOrigins: [] }, true);
    expect(directives.frameSrc).toEqual(["'none'"]);
    expect(directives.upgradeInsecureRequests).toEqual([]);
  });

  it("relaxes scripts, styles and connections for Vite in development only", () => {
    const directives = cspDirectives({ ...options, development: true }, false);
    expect(directives.scriptSrc).toEqual(["'self'", "'unsafe-inline'", "'unsafe-eval'"]);
    expect(directives.styleSrc).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives.connectSrc).toEqual(["'self'", "ws:", "wss:"]);
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

import { describe, expect, it } from "vitest";
import { clientKey, isSpeculatedPath } from "./rate-limit";

describe("clientKey", () => {
  it("counts an IPv4 client by its address, also when it comes IPv4-mapped", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:cb00:7107")).toBe("203.0.113.7");
  });

  it("counts an IPv6 client by its /56, however the address is written", () => {
    expect(clientKey("2001:db8:aa:bb12:1:2:3:4")).toBe("2001:db8:aa:bb00::/56");
    expect(clientKey("2001:db8:aa:bbff::9")).toBe("2001:db8:aa:bb00::/56");
    expect(clientKey("2001:db8:aa:bc00::1")).toBe("2001:db8:aa:bc00::/56");
    expect(clientKey("::1")).toBe("0:0:0:0::/56");
  });
});

describe("isSpeculatedPath", () => {
  it("is true for the pages the speculation rules name, an event's page included", () => {
    for (const path of ["/", "/about", "/events", "/events/abc123", "/portal"]) expect(isSpeculatedPath(path), path).toBe(true);
  });

  it("is false for files, images, downloads, the API, data requests and other spellings", () => {
    for (const path of [
      "/favicon.svg",
      "/events/abc/og.png",
      "/api/calendar/events",
      "/api/calendar/feed.ics",
      "/about.data",
      "/About",
      "/admin",
    ]) {
      expect(isSpeculatedPath(path), path).toBe(false);
    }
  });
});

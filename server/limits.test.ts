import { describe, expect, it } from "vitest";
import { checkTarget, MAX_QUERY_LENGTH, MAX_URL_LENGTH, validHost } from "./limits";

describe("checkTarget", () => {
  it.each(["/", "/events?tab=past", "/api/calendar/events/abc.ics", "/%E2%9C%93", "/a%2Fb", `/e?${"q".repeat(MAX_QUERY_LENGTH)}`])("accepts %s", (target) => {
    expect(checkTarget(target)).toBeUndefined();
  });

  it.each(["/%E0%A4%A", "/%", "/events%ZZ", "/assets/%c0%ae%c0%ae/", "/%ff?x=1"])("refuses malformed percent-encoding in %s with 400", (target) => {
    expect(checkTarget(target)?.status).toBe(400);
  });

  it("does not judge the query's encoding (URLSearchParams tolerates it)", () => {
    expect(checkTarget("/events?tab=%")).toBeUndefined();
  });

  it("refuses long queries and long targets with 414", () => {
    expect(checkTarget(`/e?${"q".repeat(MAX_QUERY_LENGTH + 1)}`)).toEqual({ status: 414, message: "Query string too long" });
    expect(checkTarget(`/${"p".repeat(MAX_URL_LENGTH)}`)).toEqual({ status: 414, message: "URI too long" });
  });
});

describe("request targets and hosts that cannot make a URL", () => {
  it("refuses asterisk and absolute-form targets", () => {
    expect(checkTarget("*")).toMatchObject({ status: 400 });
    expect(checkTarget("http://evil.example/")).toMatchObject({ status: 400 });
    expect(checkTarget("/events?tab=past")).toBeUndefined();
  });

  it("accepts names, IPv4 and bracketed IPv6 with a port, and nothing else", () => {
    for (const host of ["localhost", "127.0.0.1:3000", "founders.example.org", "[::1]:8080", "a-b.example:65535"]) {
      expect(validHost(host), host).toBe(true);
    }
    for (const host of [undefined, "", "a b", "[::1", "x:99999", "x:", "-bad.example", "évil.example", "a/b"]) {
      expect(validHost(host), String(host)).toBe(false);
    }
  });
});

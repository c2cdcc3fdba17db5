import { describe, expect, it } from "vitest";
import { checkTarget, isValidHost, MAX_QUERY_LENGTH, MAX_URL_LENGTH } from "./limits";

describe("checkTarget", () => {
  it.each(["/", "/events?tab=past", "/api/calendar/events/abc.ics", "/%E2%9C%93", "/a%2Fb", `/e?${"q".repeat(MAX_QUERY_LENGTH)}`])(
    "accepts %s",
    (target) => {
      expect(checkTarget(target)).toBeUndefined();
    },
  );

  it.each(["/%E0%A4%A", "/%", "/events%ZZ", "/assets/%c0%ae%c0%ae/", "/%ff?x=1"])(
    "refuses malformed percent-encoding in %s with 400",
    (target) => {
      expect(checkTarget(target)?.status).toBe(400);
    },
  );

  it("does not judge the query's encoding (URLSearchParams tolerates it)", () => {
    expect(checkTarget("/events?tab=%")).toBeUndefined();
  });

  it("refuses long queries and long targets with 414", () => {
    expect(checkTarget(`/e?${"q".repeat(MAX_QUERY_LENGTH + 1)}`)).toEqual({ status: 414, message: "Query string too long" });
    expect(checkTarget(`/${"p".repeat(MAX_URL_LENGTH)}`)).toEqual({ status: 414, message: "URI too long" });
  });
});

describe("isValidHost", () => {
  it.each(["127.0.0.1:3000", "localhost", "founders.example.org", "founders.example.org.", "[::1]:8080", "a-b.c"])("accepts %s", (host) => {
    expect(isValidHost(host)).toBe(true);
  });

  it.each([
    undefined,
    "",
    " ",
    "[::1",
    "host:port",
    "a b",
    "evil.example/path",
    "user@host",
    "host:99999999",
    "-bad.example",
    "x".repeat(256),
  ])("refuses %j", (host) => {
    expect(isValidHost(host)).toBe(false);
  });
});

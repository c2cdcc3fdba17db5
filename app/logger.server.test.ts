import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, scrubSecrets } from "./logger.server";

function memory() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

describe("scrubSecrets", () => {
  it("removes key-like URL parameters and the given secret values", () => {
    expect(scrubSecrets("GET https://www.googleapis.com/calendar/v3/x?key=AIza123&timeMin=1 failed", [])).toBe(
      "GET https://www.googleapis.com/calendar/v3/x?key=[redacted]&timeMin=1 failed",
    );
    expect(scrubSecrets("a?access_token=t0k&b=1 and &apikey=zzz", [])).toBe("a?access_token=[redacted]&b=1 and &apikey=[redacted]");
    expect(scrubSecrets("the key AIza-SECRET leaked", ["AIza-SECRET"])).toBe("the key [redacted] leaked");
    expect(scrubSecrets("monkey=1&keyboard=2", [])).toBe("monkey=1&keyboard=2");
    // GitHub's sign-in sends its one-use code back in the callback's query.
    expect(scrubSecrets("/admin/auth/callback?code=9f3c1e&state=s1", [])).toBe("/admin/auth/callback?code=[redacted]&state=s1");
    expect(scrubSecrets("zipcode=10027", [])).toBe("zipcode=10027");
  });
});

describe("createLogger", () => {
  it("writes JSON lines at the level asked, with the key scrubbed from messages and errors", async () => {
    const { stream, lines } = memory();
    const log = createLogger({ LOG_LEVEL: "info", GOOGLE_API_KEY: "AIza-SECRET-42" }, stream);
    log.debug("not written");
    log.info("calendar at https://example.org/c?key=AIza-SECRET-42 answered");
    log.error({ err: new Error("fetch https://example.org/?key=AIza-SECRET-42 failed") }, "upstream failed for AIza-SECRET-42");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(2);
    const [info, error] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(info).toMatchObject({ level: "info", msg: "calendar at https://example.org/c?key=[redacted] answered" });
    expect(error).toMatchObject({
      level: "error",
      msg: "upstream failed for [redacted]",
      err: { type: "Error", message: "fetch https://example.org/?key=[redacted] failed" },
    });
    expect(lines.join("\n")).not.toContain("AIza-SECRET-42");
  });

  it("scrubs the GitHub OAuth app's secret too", async () => {
    const { stream, lines } = memory();
    const log = createLogger({ LOG_LEVEL: "info", GOOGLE_API_KEY: undefined, GITHUB_OAUTH_CLIENT_SECRET: "gh-oauth-SECRET-7" }, stream);
    log.warn({ err: new Error("refused gh-oauth-SECRET-7") }, "exchange with gh-oauth-SECRET-7 failed");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("gh-oauth-SECRET-7");
  });
});

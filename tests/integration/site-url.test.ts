// Production start-up warns loudly when SITE_URL would send link previews and search engines to
// the visitor's own machine.
import { afterEach, describe, expect, it } from "vitest";
import { sharedServer } from "../support/shared-server";
import { startServer, type RunningServer } from "../support/start-server";

type LogLine = { level?: string; msg?: string };
const lines = (output: string): LogLine[] =>
  output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as LogLine);

let server: RunningServer | undefined;
afterEach(() => server?.stop());

describe("SITE_URL at start-up (NODE_ENV=production)", () => {
  it.each([
    ["unset", "", /^WARNING: SITE_URL IS NOT SET: .*http:\/\/localhost:3000/],
    ["localhost", "http://localhost:3000", /^WARNING: SITE_URL POINTS AT THIS MACHINE \(localhost\)/],
  ])("%s: a warn-level line before the server listens", async (_label, value, expected) => {
    server = await startServer({ SITE_URL: value });
    const warnings = lines(server.output()).filter((l) => l.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(expected);
    expect(warnings[0]!.msg).toMatch(/og:image.*sitemap.*robots\.txt/);
    expect(server.output().indexOf("WARNING")).toBeLessThan(server.output().indexOf("Server listening"));
  });

  it("a public address: no warning", () => {
    // The run's shared server has one.
    expect(sharedServer().output()).not.toContain("SITE_URL");
  });
});

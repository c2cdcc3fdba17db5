import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createApiRateLimit } from "./rate-limit";

const request = () => ({}) as IncomingMessage;

describe("API rate limit", () => {
  it("allows the limit a minute per address, then limits with Retry-After", async () => {
    const limit = createApiRateLimit(3);
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limit.hit(request(), "192.0.2.1"));
    expect(decisions.map((d) => d.limited)).toEqual([false, false, false, true, true]);
    expect(decisions[0]?.headers).toEqual([
      ["RateLimit", '"3-in-1min"; r=2; t=60'],
      ["RateLimit-Policy", expect.stringMatching(/^"3-in-1min"; q=3; w=60; pk=:[A-Za-z0-9+/=]+:$/)],
    ]);
    expect(decisions[4]?.headers).toContainEqual(["Retry-After", String(decisions[4]?.resetSeconds)]);
    expect(decisions[4]?.resetSeconds).toBeGreaterThan(0);
    // Another address has its own count.
    expect((await limit.hit(request(), "192.0.2.2")).limited).toBe(false);
  });

  it("counts a request once however often it is asked about", async () => {
    const limit = createApiRateLimit(2);
    const same = request();
    for (let i = 0; i < 5; i++) expect((await limit.hit(same, "192.0.2.1")).limited).toBe(false);
    expect((await limit.hit(request(), "192.0.2.1")).limited).toBe(false);
    expect((await limit.hit(request(), "192.0.2.1")).limited).toBe(true);
  });

  it("counts an IPv6 /56 as one client, so rotating addresses does not escape the limit", async () => {
    const limit = createApiRateLimit(1);
    expect((await limit.hit(request(), "2001:db8:0:1::1")).limited).toBe(false);
    expect((await limit.hit(request(), "2001:db8:0:2::99")).limited).toBe(true);
    expect((await limit.hit(request(), "2001:db8:1:0::1")).limited).toBe(false);
  });
});

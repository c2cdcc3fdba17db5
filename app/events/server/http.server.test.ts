import { describe, expect, it } from "vitest";
import { cacheableResponse, EVENTS_CACHE_CONTROL, jsonError } from "./http.server";

describe("ETags", () => {
  it("answers 304 without a body when the client has it, 200 otherwise", async () => {
    const fresh = cacheableResponse(new Request("http://x/"), "hello", { "Content-Type": "text/plain" });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("Cache-Control")).toBe(EVENTS_CACHE_CONTROL);
    const cached = cacheableResponse(new Request("http://x/", { headers: { "If-None-Match": fresh.headers.get("ETag")! } }), "hello", {
      "Content-Type": "text/plain",
    });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe("");
    expect(cached.headers.get("ETag")).toBe(fresh.headers.get("ETag"));
  });

  it("errors are JSON sentences and never cached", async () => {
    const response = jsonError(502, "Unavailable.");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toEqual({ message: "Unavailable." });
  });
});

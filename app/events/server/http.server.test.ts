import { describe, expect, it } from "vitest";
import { jsonError } from "./http.server";

describe("jsonError", () => {
  it("is a JSON sentence with its status, and says nothing about caching (the answer store does)", async () => {
    const response = jsonError(502, "Unavailable.");
    expect(response.status).toBe(502);
    expect(response.headers.get("Cache-Control")).toBeNull();
    expect(await response.json()).toEqual({ message: "Unavailable." });
  });
});

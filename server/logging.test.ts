import { describe, expect, it } from "vitest";
import { loggedPath, requestIdOf } from "./logging";

describe("requestIdOf", () => {
  it.each(["abcdefgh", "lb-7f3a.91:c2_x", "0123456789abcdef0123456789abcdef"])("keeps the safe incoming id %s", (id) => {
    expect(requestIdOf(id)).toBe(id);
  });

  it.each([undefined, "", "short", "a".repeat(65), "has space 12345", "new\nline-12345", "<script>x</script>", ["abcdefgh", "ijklmnop"]])(
    "replaces %j with a fresh UUID",
    (incoming) => {
      expect(requestIdOf(incoming)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    },
  );
});

describe("loggedPath", () => {
  it("drops the query and shortens long paths", () => {
    expect(loggedPath("/events?tab=past&token=secret")).toBe("/events");
    expect(loggedPath(`/${"a".repeat(1000)}`)).toHaveLength(257);
    expect(loggedPath(undefined)).toBe("");
  });
});

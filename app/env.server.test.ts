import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("applies defaults to an empty environment", () => {
    expect(parseEnv({})).toMatchObject({ PORT: 3000, NODE_ENV: "production" });
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ SITE_URL: "", PORT: "" })).toMatchObject({ SITE_URL: undefined, PORT: 3000 });
  });

  it("accepts http(s) URLs", () => {
    const env = parseEnv({ SITE_URL: "https://founders.example.org", MEMBER_LOGIN_URL: "http://localhost:9000/login" });
    expect(env.SITE_URL).toBe("https://founders.example.org");
  });

  it.each(["MEMBER_LOGIN_URL", "APPLICATION_URL", "CONTACT_SURVEY_URL", "SITE_URL"])(
    "names %s when it is not an http(s) URL, without echoing the value",
    (name) => {
      const attempt = () => parseEnv({ [name]: "ftp://secret-value.example" });
      expect(attempt).toThrow(EnvError);
      expect(attempt).toThrow(new RegExp(`${name}: must be an absolute http\\(s\\) URL`));
      expect(attempt).not.toThrow(/secret-value/);
    },
  );

  it("rejects a bad port", () => {
    expect(() => parseEnv({ PORT: "http" })).toThrow(/PORT/);
  });
});

import { describe, expect, it } from "vitest";
import { EnvError, parseEnv, SAVED_COPY_DEFAULT_PATH, warnAboutOldNames } from "./env.server";
import { PRODUCTION_TIMINGS } from "./timings.server";

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

function errorOf(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected parseEnv to throw");
}

describe("parseEnv: events source", () => {
  it("defaults to the bundled sample with a 300 s cache", () => {
    const env = parseEnv({});
    expect(env.GOOGLE_CALENDAR_ID).toBeUndefined();
    expect(env.CALENDAR_ICS_URL).toBeUndefined();
    expect(env.EVENTS_CACHE_TTL_SECONDS).toBe(300);
    expect(env.GOOGLE_CALENDAR_API_URL).toBe("https://www.googleapis.com/calendar/v3");
  });

  it("accepts Google id + key, and a webcal feed", () => {
    expect(parseEnv({ GOOGLE_CALENDAR_ID: "a@group.calendar.google.com", GOOGLE_API_KEY: "k" }).GOOGLE_API_KEY).toBe("k");
    expect(parseEnv({ CALENDAR_ICS_URL: "webcal://example.org/cal.ics" }).CALENDAR_ICS_URL).toBe("webcal://example.org/cal.ics");
    expect(parseEnv({ EVENTS_CACHE_TTL_SECONDS: "1" }).EVENTS_CACHE_TTL_SECONDS).toBe(1);
  });

  it.each([
    [{ GOOGLE_CALENDAR_ID: "cal-id-secret" }, "GOOGLE_API_KEY"],
    [{ GOOGLE_API_KEY: "AIza-secret-key" }, "GOOGLE_CALENDAR_ID"],
    [{ CALENDAR_ICS_URL: "ftp://example.org/cal.ics" }, "CALENDAR_ICS_URL"],
    [{ CALENDAR_ICS_URL: "javascript:alert(1)" }, "CALENDAR_ICS_URL"],
    [{ CALENDAR_ICS_URL: "https://example.org/a.ics", GOOGLE_CALENDAR_ID: "x", GOOGLE_API_KEY: "AIza-secret-key" }, "CALENDAR_ICS_URL"],
    [{ GOOGLE_CALENDAR_API_URL: "file:///etc/passwd" }, "GOOGLE_CALENDAR_API_URL"],
    [{ EVENTS_CACHE_TTL_SECONDS: "0" }, "EVENTS_CACHE_TTL_SECONDS"],
    [{ EVENTS_CACHE_TTL_SECONDS: "five" }, "EVENTS_CACHE_TTL_SECONDS"],
  ])("refuses %o naming %s, without echoing values", (source, variable) => {
    const message = errorOf(source);
    expect(message).toContain(variable);
    for (const value of Object.values(source)) expect(message).not.toContain(value);
  });

  it("names every bad variable at once", () => {
    const message = errorOf({ PORT: "not-a-port", GOOGLE_CALENDAR_ID: "x" });
    expect(message).toContain("PORT");
    expect(message).toContain("GOOGLE_API_KEY");
  });
});

describe("parseEnv: the HTTP process", () => {
  it("defaults to no trusted proxy, 120 API requests a minute and info logs", () => {
    expect(parseEnv({})).toMatchObject({ TRUST_PROXY: false, RATE_LIMIT_PER_MINUTE: 120, LOG_LEVEL: "info" });
  });

  it.each([
    ["FALSE", false],
    ["1", 1],
    ["loopback", ["loopback"]],
    ["10.0.0.0/8, 192.168.1.7,::1, fd00::/8", ["10.0.0.0/8", "192.168.1.7", "::1", "fd00::/8"]],
  ])("reads TRUST_PROXY=%s", (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each(["yes", "10.0.0.0/33", "::1/129", "10.0.0.1/8/1", "example.org", "1,2", "-1", "loopback,"])(
    "names TRUST_PROXY when it is %s",
    (value) => {
      expect(errorOf({ TRUST_PROXY: value })).toMatch(/TRUST_PROXY: must be false, a hop count/);
    },
  );

  it.each(["true", "TRUE", " true "])("refuses TRUST_PROXY=%s, saying what to set instead", (value) => {
    expect(errorOf({ TRUST_PROXY: value })).toMatch(
      /TRUST_PROXY: cannot be true .*addresses \(e\.g\. loopback.*how many there are \(e\.g\. 1\)/,
    );
  });

  it("reads RATE_LIMIT_PER_MINUTE and LOG_LEVEL, and names bad ones", () => {
    expect(parseEnv({ RATE_LIMIT_PER_MINUTE: "5", LOG_LEVEL: "debug" })).toMatchObject({ RATE_LIMIT_PER_MINUTE: 5, LOG_LEVEL: "debug" });
    const message = errorOf({ RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "verbose" });
    expect(message).toMatch(/RATE_LIMIT_PER_MINUTE/);
    expect(message).toMatch(/LOG_LEVEL/);
    expect(message).not.toContain("verbose");
  });
});

describe("parseEnv: operations", () => {
  it("has no metrics listener unless METRICS_PORT is set, and keeps it on loopback by default", () => {
    expect(parseEnv({}).METRICS_PORT).toBeUndefined();
    expect(parseEnv({ METRICS_PORT: "" }).METRICS_PORT).toBeUndefined();
    expect(parseEnv({ METRICS_PORT: "9464" })).toMatchObject({ METRICS_PORT: 9464, METRICS_HOST: "127.0.0.1" });
    expect(parseEnv({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }).METRICS_HOST).toBe("0.0.0.0");
    expect(errorOf({ METRICS_PORT: "70000" })).toMatch(/METRICS_PORT/);
  });

  it("gives speculative loads and the two stored-answer budgets their defaults, and names bad ones", () => {
    expect(parseEnv({})).toMatchObject({ SPECULATIVE_RATE_LIMIT_PER_MINUTE: 120, STORED_PAGES_MB: 64, STORED_IMAGES_MB: 32 });
    expect(parseEnv({ STORED_IMAGES_MB: "8" }).STORED_IMAGES_MB).toBe(8);
    const message = errorOf({ SPECULATIVE_RATE_LIMIT_PER_MINUTE: "0", STORED_PAGES_MB: "lots" });
    expect(message).toMatch(/SPECULATIVE_RATE_LIMIT_PER_MINUTE/);
    expect(message).toMatch(/STORED_PAGES_MB/);
  });
});

describe("parseEnv: TIMINGS", () => {
  it("runs with production's timings when TIMINGS is unset or empty, the calendar's TTL from EVENTS_CACHE_TTL_SECONDS", () => {
    expect(parseEnv({}).timings).toEqual(PRODUCTION_TIMINGS);
    expect(parseEnv({ TIMINGS: "" }).timings).toEqual(PRODUCTION_TIMINGS);
    expect(parseEnv({ EVENTS_CACHE_TTL_SECONDS: "60" }).timings).toEqual({ ...PRODUCTION_TIMINGS, calendarTtlMs: 60_000 });
  });

  it("overrides only the timings it names, the calendar's TTL below a second among them", () => {
    const env = parseEnv({ EVENTS_CACHE_TTL_SECONDS: "60", TIMINGS: '{"calendarTtlMs":150,"upstreamTimeoutMs":500}' });
    expect(env.timings).toEqual({ ...PRODUCTION_TIMINGS, calendarTtlMs: 150, upstreamTimeoutMs: 500 });
    // The operator's variable is read as before; TIMINGS wins over it.
    expect(env.EVENTS_CACHE_TTL_SECONDS).toBe(60);
    expect(env).not.toHaveProperty("TIMINGS");
  });

  it.each([
    ["not JSON", "5000", /TIMINGS: must be a JSON object of milliseconds by name/],
    ["JSON that is no object", "[1,2]", /TIMINGS: must be a JSON object of milliseconds by name/],
    [
      "an unknown timing",
      '{"upstreamTimeoutMs":500,"upstreamTimeout":500}',
      /TIMINGS: has no timing "upstreamTimeout" \(known: upstreamTimeoutMs, /,
    ],
    ["a string", '{"firstBackoffMs":"250"}', /TIMINGS\.firstBackoffMs: must be a number of milliseconds/],
    ["a fraction", '{"firstBackoffMs":2.5}', /TIMINGS\.firstBackoffMs: must be whole milliseconds/],
    ["zero", '{"shutdownGraceMs":0}', /TIMINGS\.shutdownGraceMs: /],
    ["over a day", '{"maxBackoffMs":86400001}', /TIMINGS\.maxBackoffMs: /],
  ])("refuses %s, naming the variable and the key", (_what, value, expected) => {
    expect(errorOf({ TIMINGS: value })).toMatch(expected);
  });

  it("keeps production's timings in the order they depend on", () => {
    const t = PRODUCTION_TIMINGS;
    // A visitor's wait ends before one upstream attempt would, leaving the page time to render within 6 s.
    expect(t.readWaitMs).toBeLessThan(t.upstreamTimeoutMs);
    expect(t.readWaitMs + 2_000).toBeLessThanOrEqual(6_000);
    // A read (two attempts and the wait between them) ends well before its deadline.
    expect(2 * t.upstreamTimeoutMs + t.inReadWaitMaxMs).toBeLessThan(t.readPageBudgetMs);
    expect(t.firstBackoffMs).toBeLessThan(t.maxBackoffMs);
    // Orchestrators kill a process 10 s after SIGTERM: the grace period leaves it time to exit.
    expect(t.shutdownGraceMs).toBeLessThanOrEqual(8_000);
  });
});

describe("parseEnv: the content editor", () => {
  it("has no repository by default and commits to main", () => {
    const env = parseEnv({});
    expect(env.CONTENT_REPOSITORY).toBeUndefined();
    expect(env.CONTENT_BRANCH).toBe("main");
    expect(parseEnv({ CONTENT_REPOSITORY: " our-org/founders-site ", CONTENT_BRANCH: "content/edits" })).toMatchObject({
      CONTENT_REPOSITORY: "our-org/founders-site",
      CONTENT_BRANCH: "content/edits",
    });
  });

  it.each(["founders-site", "https://github.com/our-org/founders-site", "a/b/c", "our org/site"])(
    "names CONTENT_REPOSITORY when it is %s",
    (value) => {
      expect(errorOf({ CONTENT_REPOSITORY: value })).toMatch(/CONTENT_REPOSITORY: must be a GitHub repository as owner\/name/);
    },
  );

  it.each(["/main", "main/", "a..b", "with space"])("names CONTENT_BRANCH when it is %s", (value) => {
    expect(errorOf({ CONTENT_BRANCH: value })).toMatch(/CONTENT_BRANCH: must be a branch name/);
  });
});

describe("parseEnv: signing in with GitHub", () => {
  it("is off by default, and asks for public repositories only unless told", () => {
    const env = parseEnv({});
    expect(env.GITHUB_OAUTH_CLIENT_ID).toBeUndefined();
    expect(env.GITHUB_OAUTH_CLIENT_SECRET).toBeUndefined();
    expect(env.GITHUB_OAUTH_SCOPE).toBe("public_repo");
    expect(env.GITHUB_OAUTH_URL).toBe("https://github.com");
    expect(parseEnv({ GITHUB_OAUTH_CLIENT_ID: "Ov23li", GITHUB_OAUTH_CLIENT_SECRET: "s3cret", GITHUB_OAUTH_SCOPE: "repo" })).toMatchObject({
      GITHUB_OAUTH_CLIENT_ID: "Ov23li",
      GITHUB_OAUTH_SCOPE: "repo",
    });
  });

  it.each([
    [{ GITHUB_OAUTH_CLIENT_ID: "Ov23li-client-id" }, "GITHUB_OAUTH_CLIENT_SECRET"],
    [{ GITHUB_OAUTH_CLIENT_SECRET: "very-secret-value" }, "GITHUB_OAUTH_CLIENT_ID"],
    [{ GITHUB_OAUTH_SCOPE: "admin:org" }, "GITHUB_OAUTH_SCOPE"],
    [{ GITHUB_OAUTH_URL: "javascript:alert(1)" }, "GITHUB_OAUTH_URL"],
  ])("refuses %o naming %s, without echoing values", (source, variable) => {
    const message = errorOf(source);
    expect(message).toContain(variable);
    for (const value of Object.values(source)) expect(message).not.toContain(value);
  });
});

describe("parseEnv: upstreams that are sent a secret", () => {
  it.each(["GITHUB_OAUTH_URL", "GOOGLE_CALENDAR_API_URL"])("refuses plain http for %s, anywhere but loopback", (name) => {
    for (const value of ["http://github.example.org", "http://10.0.0.5:8080/api", "http://127.example.org"])
      expect(errorOf({ [name]: value })).toContain(`${name}: must be an https URL (it is sent a secret`);
    for (const value of ["https://github.example.org", "http://127.0.0.1:4000", "http://localhost:4000/x", "http://[::1]:4000"])
      expect(parseEnv({ [name]: value })[name as "GITHUB_OAUTH_URL"]).toBe(value);
  });
});

describe("parseEnv: the saved copy's file, and its variable's old name", () => {
  const warned = (source: Record<string, string>) => {
    const lines: string[] = [];
    warnAboutOldNames(parseEnv(source), { warn: (line) => void lines.push(line) });
    return lines;
  };

  it("is .data/events-saved-copy.json unless EVENTS_SAVED_COPY_PATH names one, without a warning", () => {
    expect(SAVED_COPY_DEFAULT_PATH).toBe(".data/events-saved-copy.json");
    expect(parseEnv({}).EVENTS_SAVED_COPY_PATH).toBe(SAVED_COPY_DEFAULT_PATH);
    expect(parseEnv({ EVENTS_SAVED_COPY_PATH: "" }).EVENTS_SAVED_COPY_PATH).toBe(SAVED_COPY_DEFAULT_PATH);
    expect(parseEnv({ EVENTS_SAVED_COPY_PATH: "/data/events.json" }).EVENTS_SAVED_COPY_PATH).toBe("/data/events.json");
    expect(warned({})).toEqual([]);
    expect(warned({ EVENTS_SAVED_COPY_PATH: "off" })).toEqual([]);
  });

  it("reads the old name EVENTS_SNAPSHOT_PATH while EVENTS_SAVED_COPY_PATH is unset, with one warning naming the new one", () => {
    expect(parseEnv({ EVENTS_SNAPSHOT_PATH: "/data/old.json" }).EVENTS_SAVED_COPY_PATH).toBe("/data/old.json");
    expect(parseEnv({ EVENTS_SNAPSHOT_PATH: "off", EVENTS_SAVED_COPY_PATH: "" }).EVENTS_SAVED_COPY_PATH).toBe("off");
    expect(warned({ EVENTS_SNAPSHOT_PATH: "/data/old.json" })).toEqual([
      "WARNING: EVENTS_SNAPSHOT_PATH is an old name: rename it EVENTS_SAVED_COPY_PATH (it is read as EVENTS_SAVED_COPY_PATH until then).",
    ]);
    // The parsed configuration holds only the new name.
    expect(parseEnv({ EVENTS_SNAPSHOT_PATH: "/data/old.json" })).not.toHaveProperty("EVENTS_SNAPSHOT_PATH");
  });

  it("ignores the old name when the new one is set, and says so once", () => {
    expect(parseEnv({ EVENTS_SNAPSHOT_PATH: "/data/old.json", EVENTS_SAVED_COPY_PATH: "/data/new.json" }).EVENTS_SAVED_COPY_PATH).toBe(
      "/data/new.json",
    );
    expect(warned({ EVENTS_SNAPSHOT_PATH: "/data/old.json", EVENTS_SAVED_COPY_PATH: "/data/new.json" })).toEqual([
      "WARNING: EVENTS_SNAPSHOT_PATH is an old name and is ignored, as EVENTS_SAVED_COPY_PATH is set: remove EVENTS_SNAPSHOT_PATH.",
    ]);
  });
});

describe("parseEnv: a preview instance (Render's IS_PULL_REQUEST and RENDER_EXTERNAL_URL)", () => {
  const PREVIEW = "https://founders-site-pr-7.onrender.com";

  it("is the live site unless IS_PULL_REQUEST is true, whatever RENDER_EXTERNAL_URL says", () => {
    for (const source of [
      {},
      { IS_PULL_REQUEST: "" },
      { IS_PULL_REQUEST: "false", RENDER_EXTERNAL_URL: PREVIEW },
      { RENDER_EXTERNAL_URL: "x" },
    ])
      expect(parseEnv(source).previewUrl, JSON.stringify(source)).toBeUndefined();
  });

  it.each(["true", "TRUE", " true "])("IS_PULL_REQUEST=%s with RENDER_EXTERNAL_URL: a preview instance at that address", (flag) => {
    expect(parseEnv({ IS_PULL_REQUEST: flag, RENDER_EXTERNAL_URL: `${PREVIEW}/` }).previewUrl).toBe(PREVIEW);
  });

  it("holds neither variable under its own name: previewUrl is the one place a part reads it from", () => {
    const env = parseEnv({ IS_PULL_REQUEST: "true", RENDER_EXTERNAL_URL: PREVIEW });
    expect(env).not.toHaveProperty("IS_PULL_REQUEST");
    expect(env).not.toHaveProperty("RENDER_EXTERNAL_URL");
  });

  it.each([
    [{ IS_PULL_REQUEST: "yes" }, /IS_PULL_REQUEST: must be "true" or "false" \(Render sets it/],
    [{ IS_PULL_REQUEST: "true" }, /RENDER_EXTERNAL_URL: is required when IS_PULL_REQUEST is true/],
    [
      { IS_PULL_REQUEST: "true", RENDER_EXTERNAL_URL: "founders-site-pr-7.onrender.com" },
      /RENDER_EXTERNAL_URL: must be an absolute http\(s\) URL/,
    ],
  ])("refuses %o, saying what is wrong", (source, expected) => {
    const message = errorOf(source);
    expect(message).toMatch(expected);
    expect(message).not.toContain("founders-site-pr-7");
  });
});

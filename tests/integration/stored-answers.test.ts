// Pages and API answers are rendered once and kept as complete answers: the same bytes for every
// visitor (strong ETag, brotli and gzip made once), whatever a stranger varies (query strings,
// unknown paths, letter case, trailing slashes) resolving to those few answers without a render.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { rawRequest, type RawAnswer } from "../support/raw-http";
import { NO_SOURCE_NO_PROXY } from "../support/environments";
import { startServer, type RunningServer, renderedUrls } from "../support/start-server";
import { FAST_TIMINGS, UNTIL_MS } from "../support/timings";

const STATIC = ["/", "/apply", "/about", "/contact", "/portal", "/sitemap.xml", "/robots.txt", "/api/calendar/feed.ics"];

function decoded(answer: RawAnswer): string {
  const encoding = answer.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(answer.bytes).toString();
  if (encoding === "gzip") return gunzipSync(answer.bytes).toString();
  expect(encoding).toBeUndefined();
  return answer.body;
}

const renders = (server: RunningServer) => renderedUrls(server).length;

describe("stored answers", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...NO_SOURCE_NO_PROXY, LOG_LEVEL: "debug" });
  });
  afterAll(() => server?.stop());

  it.each(STATIC)("%s: the same bytes twice, a strong ETag per encoding, 304 on If-None-Match, shared-cacheable", async (path) => {
    const br = await rawRequest(server.url, path, { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } });
    const again = await rawRequest(server.url, path, { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } });
    const gzip = await rawRequest(server.url, path, { headers: { "Accept-Encoding": "gzip" } });
    const plain = await rawRequest(server.url, path, { headers: { "Accept-Encoding": "identity" } });
    expect(br.status).toBe(200);
    expect(again.bytes.equals(br.bytes)).toBe(true);
    expect(decoded(br)).toBe(plain.body);
    expect(decoded(gzip)).toBe(plain.body);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const tags = [br, gzip, plain].map((answer) => String(answer.headers.etag));
    for (const tag of tags) expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(again.headers.etag).toBe(tags[0]);
    if (br.headers["content-encoding"] === "br") {
      expect(new Set(tags).size).toBe(3);
      expect(br.headers.vary).toBe("Accept-Encoding");
      expect(gzip.headers["content-encoding"]).toBe("gzip");
    }
    expect(br.headers["cache-control"]).toMatch(/^public, max-age=\d+, s-maxage=\d+, stale-while-revalidate=\d+$/);
    for (const tag of tags) {
      const conditional = await rawRequest(server.url, path, { headers: { "If-None-Match": tag, "Accept-Encoding": "br" } });
      expect(conditional.status).toBe(304);
      expect(conditional.bytes.length).toBe(0);
      expect(conditional.headers.etag).toBeDefined();
      expect(conditional.headers["cache-control"]).toBe(br.headers["cache-control"]);
    }
  });

  it("answers a HEAD with the GET's headers and no body", async () => {
    const get = await rawRequest(server.url, "/about", { headers: { "Accept-Encoding": "gzip" } });
    const head = await rawRequest(server.url, "/about", { method: "HEAD", headers: { "Accept-Encoding": "gzip" } });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    for (const name of ["etag", "content-length", "content-type", "content-security-policy", "cache-control"])
      expect(head.headers[name], name).toBe(get.headers[name]);
  });

  it("ignores query parameters a page does not read, and keeps those it does", async () => {
    const home = await rawRequest(server.url, "/");
    for (const target of ["/?utm_source=x", "/?r=1&r=2", "/?tab=past"]) {
      const answer = await rawRequest(server.url, target);
      expect(answer.body, target).toBe(home.body);
      expect(answer.headers.etag, target).toBe(home.headers.etag);
    }
    const past = await rawRequest(server.url, "/events?tab=past");
    expect(past.body).toContain("Past events");
    expect((await rawRequest(server.url, "/events?fbclid=1&tab=past&x=2")).body).toBe(past.body);
    expect((await rawRequest(server.url, "/events?tab=PAST")).body).toBe((await rawRequest(server.url, "/events")).body);
  });

  it("sends the retired ?all=1 (every event of a tab on one page) to the tab's own address (301)", async () => {
    const cases: Array<[string, string]> = [
      ["/events?all=1", "/events"],
      ["/events?tab=past&all=1", "/events?tab=past"],
      ["/events?all=1&tab=past&utm=x", "/events?tab=past"],
    ];
    for (const [target, location] of cases) {
      const answer = await rawRequest(server.url, target);
      expect(answer.status, target).toBe(301);
      expect(answer.headers.location, target).toBe(location);
      expect(answer.headers["cache-control"], target).toMatch(/^public/);
    }
    // Any other value was never read: ignored, as every unknown parameter is.
    expect((await rawRequest(server.url, "/events?all=yes")).body).toBe((await rawRequest(server.url, "/events")).body);
  });

  it("serves one stored 404 page for every unknown path", async () => {
    const first = await rawRequest(server.url, "/wp-login.php");
    expect(first.status).toBe(404);
    expect(first.headers["content-type"]).toMatch(/^text\/html/);
    expect(first.headers["cache-control"]).toMatch(/^public, max-age=\d+, s-maxage=\d+$/);
    for (const target of ["/no/such/page?x=1", "/.env", "/api/unknown", "/about/team", "/events.php"]) {
      const answer = await rawRequest(server.url, target);
      expect(answer.status, target).toBe(404);
      expect(answer.body, target).toBe(first.body);
    }
  });

  it("sends a trailing slash or another letter case to the page's one address (301), never elsewhere", async () => {
    const cases: Array<[string, string]> = [
      ["/about/", "/about"],
      ["/ABOUT", "/about"],
      ["/Apply//", "/apply"],
      ["/events/?tab=past&utm=1", "/events?tab=past"],
      ["/EVENTS?tab=past", "/events?tab=past"],
    ];
    for (const [target, location] of cases) {
      const answer = await rawRequest(server.url, target);
      expect(answer.status, target).toBe(301);
      expect(answer.headers.location, target).toBe(location);
      expect(answer.headers["cache-control"], target).toMatch(/^public/);
    }
    // Only to a page of ours: never to another host.
    for (const target of ["//evil.example/", "//evil.example", "/%2F%2Fevil.example/"]) {
      const answer = await rawRequest(server.url, target);
      expect(answer.status, target).not.toBe(301);
      expect(answer.headers.location, target).toBeUndefined();
    }
  });

  it("answers an unknown event's download with the API's 404, without a render", async () => {
    const answer = await rawRequest(server.url, "/api/calendar/events/no-such-event.ics");
    expect(answer.status).toBe(404);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ message: "No event with this id." });
  });

  it("renders nothing for junk: query strings, unknown paths, unknown events, case and slashes", async () => {
    // Every answer below exists already once these have been asked for.
    const seen = [
      "/",
      "/events",
      "/events?tab=past",
      "/wp-login.php",
      "/api/calendar/events/x.ics",
      "/about/",
      "/ABOUT",
      "/about.data",
      "/junk.data",
    ];
    for (const target of seen) await rawRequest(server.url, target);
    const before = renders(server);
    expect(before).toBeGreaterThan(0);
    for (let i = 0; i < 60; i++) {
      const answers = await Promise.all([
        rawRequest(server.url, `/?r=${i}`),
        rawRequest(server.url, `/events?tab=past&r=${i}`),
        rawRequest(server.url, `/wp-${i}.php`),
        rawRequest(server.url, `/api/calendar/events/junk${i}.ics`),
        rawRequest(server.url, `/About/?r=${i}`),
        // React Router's in-app navigation data, stored like the pages.
        rawRequest(server.url, `/about.data?r=${i}`),
        rawRequest(server.url, `/junk${i}.data`),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404, 404, 301, 200, 404]);
    }
    await server.logCaughtUp();
    expect(renders(server)).toBe(before);
  });

  it("renders every static page and the 404 page before it listens", () => {
    const lines = server.output().split("\n");
    const listening = lines.findIndex((line) => line.includes("listening on"));
    const early = lines
      .slice(0, listening)
      .filter((line) => line.includes('"rendered an answer"'))
      .map((line) => JSON.parse(line).url);
    // The sitemap lists the upcoming events' pages, so it follows the calendar and is not warmed.
    const warmed = [...STATIC.filter((path) => path !== "/sitemap.xml"), "/__not-found"];
    expect(early).toEqual(expect.arrayContaining(warmed));
    // The calendar's first read starts at start-up too; the events answers it prepares may come before listening.
    const prepared = ["/events", "/events?tab=past", "/api/calendar/events"];
    expect(early.filter((url) => !warmed.includes(url)).every((url) => prepared.includes(url))).toBe(true);
  });
});

describe("the events page and API follow the calendar", () => {
  let google: FakeGoogleCalendar;
  let server: RunningServer;
  beforeAll(async () => {
    google = await startFakeGoogleCalendar();
    server = await startServer(
      {
        ...NO_SOURCE_NO_PROXY,
        GOOGLE_CALENDAR_ID: google.calendarId,
        GOOGLE_API_KEY: google.apiKey,
        GOOGLE_CALENDAR_API_URL: google.url,
        LOG_LEVEL: "debug",
      },
      // A copy is fresh for 200 ms: a request after that starts a read.
      { timings: FAST_TIMINGS },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await google?.close();
  });

  it("renders once per calendar read and view, and again when the calendar changes", async () => {
    const first = await rawRequest(server.url, "/events");
    const api = await rawRequest(server.url, "/api/calendar/events");
    expect(JSON.parse(api.body).events.length).toBeGreaterThan(0);
    const before = renders(server);
    // Within the calendar's freshness (or after a read of the same calendar), the same answers, without a render.
    expect((await rawRequest(server.url, "/events?r=1")).body).toBe(first.body);
    expect((await rawRequest(server.url, "/api/calendar/events")).headers.etag).toBe(api.headers.etag);
    expect(renders(server)).toBe(before);

    // A refresh that finds the same calendar changes nothing: no render, the same ETags.
    const readAt = async () => JSON.parse((await rawRequest(server.url, "/readyz")).body).events.lastSuccessAt as string;
    const firstRead = await readAt();
    await expect
      .poll(
        async () => {
          await rawRequest(server.url, "/api/calendar/events"); // an expired copy starts a refresh
          return await readAt();
        },
        { timeout: UNTIL_MS, interval: 100 },
      )
      .not.toBe(firstRead);
    expect((await rawRequest(server.url, "/events")).headers.etag).toBe(first.headers.etag);
    expect((await rawRequest(server.url, "/api/calendar/events")).headers.etag).toBe(api.headers.etag);
    expect(renders(server)).toBe(before);

    google.setScenario("empty");
    await expect
      .poll(async () => JSON.parse((await rawRequest(server.url, "/api/calendar/events")).body).events.length, {
        timeout: UNTIL_MS,
        interval: 100,
      })
      .toBe(0);
    const emptied = await rawRequest(server.url, "/events");
    expect(emptied.body).not.toBe(first.body);
    expect(emptied.headers.etag).not.toBe(first.headers.etag);
  });
});

// What an operator relies on: request ids, one JSON log line per request, the probes, and
// upstream outages logged once, never with the key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { suiteClock } from "../support/clock";
import { rawRequest } from "../support/raw-http";
import { jsonLines, startExpectingFailure, startServer, type RunningServer } from "../support/start-server";
import { FAST_TIMINGS, UNTIL_MS } from "../support/timings";

type LogLine = {
  level: string;
  time: string;
  msg: string;
  req?: { id: string; method: string; path: string };
  res?: { status: number };
  durationMs?: number;
  err?: unknown;
};

const logLines = (server: RunningServer) => jsonLines<LogLine>(server);

const requestLines = (server: RunningServer, id: string) => logLines(server).filter((l) => l.req?.id === id);

type Readiness = {
  status: string;
  events: {
    source: string;
    state: string;
    lastSuccessAt: string | null;
    lastFailureAt: string | null;
    consecutiveFailures: number;
    nextAttemptAt: string | null;
  };
};

describe("operations (Google source)", () => {
  let fake: FakeGoogleCalendar;
  let server: RunningServer;
  beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
    server = await startServer(
      {
        // Configured as a deployment is: without SITE_URL, start-up opens with a warning (site-url.test.ts).
        SITE_URL: "https://founders.example.org",
        ...fake.env,
        LOG_LEVEL: "info",
      },
      // A copy goes stale in 200 ms and failed reads back off from 200 ms: the outage below takes a second or two.
      { timings: FAST_TIMINGS },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  const readiness = async () => {
    const answer = await rawRequest(server.url, "/readyz");
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    return { body: JSON.parse(answer.body) as Readiness, text: answer.body };
  };

  it("is ready whatever the calendar's state, and reads the calendar as it starts, before any visitor asks", async () => {
    const { body } = await readiness();
    expect(body).toMatchObject({ status: "ready" });
    expect(["cold", "fresh"]).toContain(body.events.state);
    // No request so far asked for events: the read is the start-up's own.
    await expect.poll(async () => (await readiness()).body.events.state, { timeout: UNTIL_MS }).toBe("fresh");
    expect(fake.requestCount()).toBeGreaterThan(0);
    expect((await readiness()).body.events).toMatchObject({ source: "google", lastFailureAt: null, consecutiveFailures: 0 });
  });

  it("gives every response a request id, keeping a safe incoming one", async () => {
    const generated = await rawRequest(server.url, "/about");
    expect(generated.headers["x-request-id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const kept = await rawRequest(server.url, "/about", { headers: { "X-Request-Id": "lb-7f3a.91:c2_x" } });
    expect(kept.headers["x-request-id"]).toBe("lb-7f3a.91:c2_x");
    for (const unsafe of ["<script>alert(1)</script>", "short", "a".repeat(65), "id with spaces", '"quoted"-value-123']) {
      const replaced = await rawRequest(server.url, "/about", { headers: { "X-Request-Id": unsafe } });
      expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(server.output()).not.toContain("<script>alert(1)</script>");
  });

  it("logs one JSON line per request: id, method, path without the query, status, duration", async () => {
    const answer = await rawRequest(server.url, "/events?tab=past&token=s3cret-in-query");
    const id = String(answer.headers["x-request-id"]);
    await expect.poll(() => requestLines(server, id).length).toBe(1);
    const [line] = requestLines(server, id);
    expect(line).toMatchObject({ level: "info", msg: "request", req: { id, method: "GET", path: "/events" }, res: { status: 200 } });
    expect(line!.durationMs).toBeTypeOf("number");
    // The log's time is the server's clock, the run's (tests/support/clock.ts); a second of slack for its rounding.
    expect(Date.parse(line!.time)).toBeGreaterThan(suiteClock().now() - 60_000);
    expect(Date.parse(line!.time)).toBeLessThanOrEqual(suiteClock().now() + 1_000);
    expect(server.output()).not.toContain("s3cret-in-query");
    // The start-up line stays plain text for people.
    expect(server.output().split("\n")[0]).toMatch(/^Server listening on http:\/\/localhost:\d+ \(production\)$/);
  });

  it("answers /healthz with 200, uncached, without an info log line", async () => {
    const answer = await rawRequest(server.url, "/healthz");
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(answer.body)).toEqual({ status: "ok" });
    await server.logCaughtUp();
    expect(requestLines(server, String(answer.headers["x-request-id"]))).toEqual([]);
  });

  it("answers /readyz with the events source's state, and logs an outage once, without the key", async () => {
    const api = () => rawRequest(server.url, "/api/calendar/events");
    expect((await api()).status).toBe(200);
    let { body } = await readiness();
    expect(body.status).toBe("ready");
    expect(body.events).toMatchObject({ state: "fresh", lastFailureAt: null, consecutiveFailures: 0 });
    expect(Date.parse(body.events.lastSuccessAt!)).toBeGreaterThan(suiteClock().now() - 10_000);
    expect(Date.parse(body.events.lastSuccessAt!)).toBeLessThanOrEqual(suiteClock().now() + 1_000);
    const lastSuccessAt = body.events.lastSuccessAt;

    // An outage: every read fails. Each answer after the copy's 200 ms may start a read, as the
    // backoff allows; the answers keep coming from the last good copy, marked stale.
    fake.setScenario("error500");
    await expect
      .poll(
        async () => {
          const answer = await api();
          expect(answer.status).toBe(200);
          return (await readiness()).body.events.consecutiveFailures;
        },
        { timeout: UNTIL_MS, interval: 50 },
      )
      .toBeGreaterThanOrEqual(2);
    ({ body } = await readiness());
    const failures = body.events.consecutiveFailures;
    expect(body.events).toMatchObject({ source: "google", state: "stale" });
    // The last good read: the one above, or a refresh already on its way when the outage began.
    expect(Date.parse(body.events.lastSuccessAt!)).toBeGreaterThanOrEqual(Date.parse(lastSuccessAt!));
    expect(Date.parse(body.events.lastFailureAt!)).toBeGreaterThan(Date.parse(body.events.lastSuccessAt!));
    const stale = await api();
    expect(stale.headers["x-events-stale"]).toBe("true");
    expect(JSON.parse(stale.body)).toMatchObject({ stale: true, updatedAt: body.events.lastSuccessAt });
    // The backoff: after n failures in a row, no read for the first backoff doubled n - 1 times (up
    // to its most), whatever visitors do.
    const { firstBackoffMs, maxBackoffMs } = FAST_TIMINGS;
    const backoff = Math.min(maxBackoffMs, firstBackoffMs * 2 ** (failures - 1));
    expect(Date.parse(body.events.nextAttemptAt!) - Date.parse(body.events.lastFailureAt!)).toBeGreaterThanOrEqual(backoff);

    // Logged once for the incident, at warn: the first failed read, its two attempts, and no more.
    const output = server.output();
    expect(output.match(/refresh failed \(Google Calendar answered HTTP 500\)/g)).toHaveLength(1);
    expect(output.match(/Google Calendar answered HTTP 500 \(attempt/g)).toHaveLength(2);

    // The next read the backoff allows finds the calendar again: logged once too.
    fake.setScenario("normal");
    await expect
      .poll(
        async () => {
          await api();
          return (await readiness()).body.events.state;
        },
        { timeout: UNTIL_MS, interval: 50 },
      )
      .toBe("fresh");
    ({ body } = await readiness());
    expect(body.events).toMatchObject({ state: "fresh", consecutiveFailures: 0 });
    expect((await api()).headers["x-events-stale"]).toBeUndefined();
    await server.logCaughtUp();
    expect(server.output().match(/the calendar answers again, after \d+ failed reads/g)).toHaveLength(1);

    const { text } = await readiness();
    for (const secret of [fake.apiKey, fake.calendarId, fake.url, "googleapis", "key="]) expect(text).not.toContain(secret);
    for (const secret of [fake.apiKey, fake.url, "key="]) expect(server.output()).not.toContain(secret);
  });

  it("wrote nothing to stderr", () => {
    expect(server.stderr()).toBe("");
  });
});

describe("LOG_LEVEL=warn with a failing calendar", () => {
  let fake: FakeGoogleCalendar;
  let server: RunningServer;
  beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
    fake.setScenario("notFound");
    server = await startServer({
      ...fake.env,
      LOG_LEVEL: "warn",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("logs no successful requests, but every 5xx with the id its response carries", async () => {
    const ok = await rawRequest(server.url, "/about");
    expect(ok.status).toBe(200);
    const failed = await rawRequest(server.url, "/api/calendar/events");
    expect(failed.status).toBe(502);
    const id = String(failed.headers["x-request-id"]);
    await expect.poll(() => requestLines(server, id).length).toBe(1);
    expect(requestLines(server, id)[0]).toMatchObject({
      level: "error",
      msg: "request failed",
      req: { id, path: "/api/calendar/events" },
      res: { status: 502 },
    });
    expect(requestLines(server, String(ok.headers["x-request-id"]))).toEqual([]);
    expect(logLines(server).some((l) => l.level === "info")).toBe(false);
    // The configuration hint is there; the key and the upstream URL are not.
    expect(server.output()).toContain("configuration error: Google Calendar answered 404 for GOOGLE_CALENDAR_ID");
    expect(server.output()).not.toContain(fake.apiKey);
    expect(server.output()).not.toContain(fake.url);
  });
});

describe("start-up configuration of the HTTP process", () => {
  it("refuses bad TRUST_PROXY, RATE_LIMIT_PER_MINUTE and LOG_LEVEL, naming each, without a stack", async () => {
    const { code, stderr } = await startExpectingFailure({ TRUST_PROXY: "yes-please", RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "loud" });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Invalid configuration in the environment:\n/);
    for (const name of ["TRUST_PROXY", "RATE_LIMIT_PER_MINUTE", "LOG_LEVEL"]) expect(stderr).toContain(`  ${name}: `);
    expect(stderr).not.toContain("yes-please");
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

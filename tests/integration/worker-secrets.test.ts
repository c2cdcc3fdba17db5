// Secrets go only where they are needed: each worker process starts with the few variables it needs
// (read from /proc/<pid>/environ while it works), so neither holds the OAuth app's secret, and the
// share card worker, which lays out text anyone can put in an event, not the Google key either (the
// calendar worker is sent it with each read, over its channel, not in its environment).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAUTH_APP, oauthEnv } from "../fakes/github";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar";
import { freePort } from "../support/http";
import { childProcesses, environmentOf } from "../support/process";
import { startServer, type RunningServer } from "../support/start-server";

let google: FakeGoogleCalendar;
let server: RunningServer;

beforeAll(async () => {
  google = await startFakeGoogleCalendar();
  server = await startServer({
    ...google.env,
    CONTENT_REPOSITORY: "founders/site",
    ...oauthEnv(`http://127.0.0.1:${await freePort()}`),
    // A read after a second, so the test can hold one.
    EVENTS_CACHE_TTL_SECONDS: "1",
  });
});

afterAll(async () => {
  await server?.stop();
  await google?.close();
});

/** The server's worker started with `flag`, alive now. */
function worker(flag: string): number {
  const found = childProcesses(server.pid).filter((child) => child.argv.includes(flag));
  expect(found, `one process with ${flag}`).toHaveLength(1);
  return found[0]!.pid;
}

const secrets = () => ({ oauth: OAUTH_APP.clientSecret, google: google.apiKey });

describe("the workers' environments", () => {
  it("the server's own holds both secrets (so a grep would find them)", () => {
    const env = environmentOf(server.pid).join("\n");
    expect(env).toContain(secrets().oauth);
    expect(env).toContain(secrets().google);
  });

  it("the share card worker, while it works: neither the OAuth secret nor the Google key", async () => {
    expect((await fetch(`${server.url}/api/calendar/events`)).status).toBe(200);
    // SHARE_CARDS_AHEAD is 0 in tests: this card starts the worker, which then stays 15 s.
    const card = await fetch(`${server.url}/events/next7/og.png`);
    expect(card.status).toBe(200);
    await card.arrayBuffer();
    const env = environmentOf(worker("--founders-circle-share-image-worker"));
    const text = env.join("\n");
    expect(text).not.toContain(secrets().oauth);
    expect(text).not.toContain(secrets().google);
    // What it is started with: Node's mode and the allocator's settings, no more.
    expect(env).toContain("NODE_ENV=production");
    expect(env).toContain("MIMALLOC_PURGE_DELAY=0");
    expect(env.every((line) => /^(NODE_ENV|NODE_OPTIONS|NODE_CHANNEL_\w+|TZ|MIMALLOC_\w+)=/.test(line))).toBe(true);
  });

  it("the calendar worker, during a read: neither secret (the key comes with the read)", async () => {
    // Google holds the next read's request: the worker is in the middle of that read.
    google.setScenario("hang");
    const before = google.requestCount();
    await expect
      .poll(async () => {
        await (await fetch(`${server.url}/api/calendar/events`)).arrayBuffer();
        return google.requestCount();
      })
      .toBeGreaterThan(before);
    const env = environmentOf(worker("--founders-circle-calendar-worker"));
    const text = env.join("\n");
    expect(text).not.toContain(secrets().oauth);
    expect(text).not.toContain(secrets().google);
    expect(env).toContain("NODE_ENV=production");
    // Its request did carry the key: it is sent with each read.
    expect(google.requests.at(-1)?.query.get("key")).toBe(secrets().google);
  });
});

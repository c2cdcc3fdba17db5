// Two sites in one process, each made by createSite from a configuration of its own: each reads its
// own calendar with its own TTL and answers with its own address (the load context carries its
// parts to the loaders), and closing one removes the listeners it set, not the other's.
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ServerApp from "../../server/app";
import { startFakeIcsFeed, type FakeIcsFeed } from "../fakes/ics-feed";
import { NO_SOURCE } from "../support/environments";
import { START_LIMIT_MS } from "../support/start-server";
import { FAST_TIMINGS, timingsVariable, UNTIL_MS } from "../support/timings";

type ServerBundle = typeof ServerApp;
type Site = ReturnType<ServerBundle["createSite"]>;

/** A site of the built server bundle, listening on loopback. */
type Running = { site: Site; server: Server; url: string };

/** One listener for share cards drawn ahead, one for the answer store's preparing, one for the metrics. */
const LISTENERS_PER_SITE = 3;

let bundle: ServerBundle;
let feeds: FakeIcsFeed[] = [];
let sites: Running[] = [];

async function startSite(variables: Record<string, string>): Promise<Running> {
  const env = bundle.parseEnv({
    ...NO_SOURCE,
    EVENTS_SAVED_COPY_PATH: "off",
    SHARE_CARDS_AHEAD: "0",
    METRICS_PORT: "0",
    ...variables,
  });
  const site = bundle.createSite({
    env,
    // Its own logger, quiet but for warnings (a site's lines go where createSite is told).
    logger: bundle.logger.child({ site: variables.SITE_URL }, { level: "warn" }),
    handler: bundle.app,
    render: bundle.render,
    clientRoot: "build/client",
    readiness: { draining: () => false, startedAt: Date.now() },
  });
  const server = bundle.createHttpServer(site.listener, () => false);
  server.listen(0, "127.0.0.1");
  await Promise.all([once(server, "listening"), site.startEvents()]);
  const running = { site, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  sites.push(running);
  return running;
}

async function close({ site, server }: Running): Promise<void> {
  site.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The site's events JSON; any other answer fails with its status and body. */
async function eventsOf(url: string): Promise<{ subscribeUrl: string; events: { summary: string }[] }> {
  const res = await fetch(`${url}/api/calendar/events`);
  const body = await res.text();
  expect(res.status, `${url}/api/calendar/events answered ${body}`).toBe(200);
  return JSON.parse(body) as { subscribeUrl: string; events: { summary: string }[] };
}

beforeAll(async () => {
  // The build's own bundle (tests/setup/build-once.ts builds it): the server.js process loads the same one.
  bundle = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBundle;
  // The bundle runs in this process, at the machine's clock (not the run's): each feed has a series without an end
  // (a monthly breakfast since 2020, a yearly anniversary since 2023), so each site lists events of its own whatever the date.
  feeds = await Promise.all([startFakeIcsFeed(["unbounded-monthly.ics"]), startFakeIcsFeed(["all-day.ics"])]);
});

afterAll(async () => {
  await Promise.all(sites.map(close));
  await Promise.all(feeds.map((feed) => feed.close()));
});

describe("two sites in one process", () => {
  it("each reads its own calendar with its own TTL, serves its own address, and closing one removes only its listeners", async () => {
    const [feedA, feedB] = feeds as [FakeIcsFeed, FakeIcsFeed];
    // A keeps production's TTL (minutes); B's copy is fresh for 200 ms.
    const a = await startSite({ CALENDAR_ICS_URL: feedA.urlOf("unbounded-monthly.ics"), SITE_URL: "https://a.example.org" });
    const b = await startSite({
      CALENDAR_ICS_URL: feedB.urlOf("all-day.ics"),
      SITE_URL: "https://b.example.org",
      TIMINGS: timingsVariable({ calendarTtlMs: FAST_TIMINGS.calendarTtlMs }),
    });

    // Each site's first read done (a worker process started for each): as the shared server's, up to a start's limit on a busy machine.
    for (const { site } of [a, b])
      await expect
        .poll(() => site.parts.events.status().state, { timeout: START_LIMIT_MS, message: "the site's first read" })
        .toBe("fresh");
    const [eventsA, eventsB] = await Promise.all([eventsOf(a.url), eventsOf(b.url)]);
    expect(eventsA.subscribeUrl).toBe(feedA.urlOf("unbounded-monthly.ics"));
    expect(eventsB.subscribeUrl).toBe(feedB.urlOf("all-day.ics"));
    const summaries = (events: { summary: string }[]) => new Set(events.map((event) => event.summary));
    expect(summaries(eventsA.events)).toContain("Members Breakfast");
    expect(summaries(eventsA.events)).not.toContain("Community anniversary");
    expect(summaries(eventsB.events)).toContain("Community anniversary");
    expect(summaries(eventsB.events)).not.toContain("Members Breakfast");

    // The loaders read the site's public configuration from the load context.
    expect(await fetch(`${a.url}/robots.txt`).then((res) => res.text())).toContain("Sitemap: https://a.example.org/sitemap.xml");
    expect(await fetch(`${b.url}/robots.txt`).then((res) => res.text())).toContain("Sitemap: https://b.example.org/sitemap.xml");

    // B's short TTL has it read its feed again as it is asked; A's copy stays fresh, its feed read once.
    await expect
      .poll(async () => (await eventsOf(b.url), feedB.requestCount()), { timeout: UNTIL_MS, message: "site B read its feed again" })
      .toBeGreaterThanOrEqual(3);
    await eventsOf(a.url);
    expect(feedA.requestCount()).toBe(1);

    expect(a.site.parts.events.listenerCount()).toBe(LISTENERS_PER_SITE);
    expect(b.site.parts.events.listenerCount()).toBe(LISTENERS_PER_SITE);
    await close(a);
    sites = sites.filter((running) => running !== a);
    expect(a.site.parts.events.listenerCount()).toBe(0);
    expect(b.site.parts.events.listenerCount()).toBe(LISTENERS_PER_SITE);
    expect((await eventsOf(b.url)).subscribeUrl).toBe(feedB.urlOf("all-day.ics"));
  });
});

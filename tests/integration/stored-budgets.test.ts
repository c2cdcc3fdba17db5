// Pages and share images kept apart (issue 29): the static pages are a fixed set, never evicted;
// the calendar's pages and its share images have memory budgets of their own. A crawler walking
// every share card fills the images' budget and evicts only images; one walking every event page
// evicts only event pages. `/` is still answered from the store, with no render, as the metrics
// show. Small budgets (1 MB each) stand in for the defaults: in one shared budget the same crawl
// pushes out the pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventsResponse } from "~/events/model";
import { sample, scrape } from "../support/metrics";
import { rawRequest } from "../support/raw-http";
import { NO_SOURCE_NO_PROXY } from "../support/environments";
import { startServer, type RunningServer } from "../support/start-server";

const MB = 1024 * 1024;
/** Cards of about 46 kB and event pages of about 40 kB stored: 40 of either are well over 1 MB. */
const CRAWLED = 40;
const KINDS = ["static", "pages", "images"] as const;

describe("crawls of every share card and every event page", () => {
  let server: RunningServer;
  let events: EventsResponse["events"];
  const pages = ["/", "/about", "/events", "/contact", "/api/calendar/events"];

  beforeAll(async () => {
    server = await startServer({ ...NO_SOURCE_NO_PROXY, METRICS_PORT: "0", STORED_PAGES_MB: "1", STORED_IMAGES_MB: "1" });
    ({ events } = JSON.parse((await rawRequest(server.url, "/api/calendar/events")).body) as EventsResponse);
    expect(events.length).toBeGreaterThanOrEqual(CRAWLED);
  });
  afterAll(() => server?.stop());

  /** Every store's counts now, and the misses and renders of all three together. */
  async function counts() {
    const text = await scrape(server);
    const of = (name: string) =>
      Object.fromEntries(KINDS.map((kind) => [kind, sample(text, `stored_answers_${name}`, { kind }) ?? NaN])) as Record<
        (typeof KINDS)[number],
        number
      >;
    const total = (byKind: Record<string, number>) => Object.values(byKind).reduce((sum, value) => sum + value, 0);
    const [renders, misses] = [of("renders_total"), of("misses_total")];
    return {
      renders,
      misses,
      hits: of("hits_total"),
      evictions: of("evictions_total"),
      bytes: of("bytes"),
      allRenders: total(renders),
      allMisses: total(misses),
    };
  }

  /** GETs `targets` one by one, as a crawler does; the bytes they came to. */
  async function crawl(targets: string[], type: RegExp): Promise<number> {
    let bytes = 0;
    for (const target of targets) {
      const answer = await rawRequest(server.url, target);
      expect(answer.status, target).toBe(200);
      expect(answer.headers["content-type"], target).toMatch(type);
      bytes += answer.bytes.length;
    }
    return bytes;
  }

  it("a crawl of share cards evicts images only: / is answered from the store afterwards, with no render", async () => {
    for (const page of pages) expect((await rawRequest(server.url, page)).status, page).toBe(200);
    const before = await counts();

    const imageBytes = await crawl(
      events.slice(0, CRAWLED).map((event) => `/events/${event.id}/og.png`),
      /^image\/png$/,
    );
    // The crawl was bigger than a budget: in one shared store it would have pushed the pages out.
    expect(imageBytes).toBeGreaterThan(MB);
    const afterCrawl = await counts();
    expect(afterCrawl.evictions.images).toBeGreaterThan(0);
    expect(afterCrawl.bytes.images).toBeLessThanOrEqual(MB);
    expect(afterCrawl.evictions.pages).toBe(0);
    expect(afterCrawl.evictions.static).toBe(0);

    expect(afterCrawl.allRenders).toBe(before.allRenders + CRAWLED);
    for (const page of pages) expect((await rawRequest(server.url, page)).status, page).toBe(200);
    const after = await counts();
    // Every page was still in the store: no miss, no render.
    expect(after.allMisses).toBe(afterCrawl.allMisses);
    expect(after.allRenders).toBe(afterCrawl.allRenders);
    expect(after.hits.static + after.hits.pages).toBe(afterCrawl.hits.static + afterCrawl.hits.pages + pages.length);
  });

  it("a crawl of event pages evicts event pages only: the share cards and the static pages stay, / is never rendered again", async () => {
    // The share cards the first test left in their budget (its last ones), each answered from the store.
    const keptCards = events.slice(CRAWLED - 3, CRAWLED).map((event) => `/events/${event.id}/og.png`);
    const before = await counts();
    const pageBytes = await crawl(
      events.slice(0, CRAWLED).map((event) => `/events/${event.id}`),
      /^text\/html/,
    );
    expect(pageBytes * 2).toBeGreaterThan(MB);
    const afterCrawl = await counts();
    // Each is stored with its brotli and gzip forms: the pages' budget overflowed; nothing else was pushed out.
    expect(afterCrawl.evictions.pages).toBeGreaterThan(before.evictions.pages);
    expect(afterCrawl.evictions.images).toBe(before.evictions.images);
    expect(afterCrawl.evictions.static).toBe(0);

    // What was evicted is event pages: the crawl's first one is rendered again, its last one is not.
    const [first, last] = [`/events/${events[0]!.id}`, `/events/${events[CRAWLED - 1]!.id}`];
    await crawl([last], /^text\/html/);
    const lastAgain = await counts();
    expect(lastAgain.renders.pages).toBe(afterCrawl.renders.pages);
    await crawl([first], /^text\/html/);
    const firstAgain = await counts();
    expect(firstAgain.renders.pages).toBe(afterCrawl.renders.pages + 1);

    // The cards and the static pages were all still in the store: no miss, no render.
    await crawl(keptCards, /^image\/png$/);
    for (const page of ["/", "/about", "/contact"]) expect((await rawRequest(server.url, page)).status, page).toBe(200);
    const after = await counts();
    expect(after.allMisses).toBe(firstAgain.allMisses);
    expect(after.allRenders).toBe(firstAgain.allRenders);
    expect(after.hits.images).toBe(firstAgain.hits.images + keptCards.length);
  });
});

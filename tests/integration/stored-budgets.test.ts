// Pages and share images in memory budgets of their own (issue 29): a crawler walking every share
// card fills the images' budget and evicts only images; `/` is still answered from the store, with
// no render, as the metrics show. Small budgets (1 MB each) stand in for the defaults: in one
// shared budget the same crawl pushes out the pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventsResponse } from "~/events/model";
import { sample, scrape } from "../support/metrics";
import { rawRequest } from "../support/raw-http";
import { startServer, type RunningServer } from "../support/start-server";

const NO_SOURCE = { GOOGLE_CALENDAR_ID: "", GOOGLE_API_KEY: "", CALENDAR_ICS_URL: "", GOOGLE_CALENDAR_API_URL: "", TRUST_PROXY: "" };
const MB = 1024 * 1024;
/** Cards of about 46 kB: 40 of them are well over the images' 1 MB. */
const CARDS = 40;

describe("a crawl of every share card", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...NO_SOURCE, METRICS_PORT: "0", STORED_PAGES_MB: "1", STORED_IMAGES_MB: "1" });
  });
  afterAll(() => server?.stop());

  it("evicts images only: / is answered from the store afterwards, with no render", async () => {
    const { events } = JSON.parse((await rawRequest(server.url, "/api/calendar/events")).body) as EventsResponse;
    expect(events.length).toBeGreaterThanOrEqual(CARDS);
    const pages = ["/", "/about", "/events", "/contact", "/api/calendar/events"];
    for (const page of pages) expect((await rawRequest(server.url, page)).status, page).toBe(200);
    const before = await scrape(server);
    const rendersBefore = sample(before, "stored_answers_renders_total", { kind: "pages" });
    const hitsBefore = sample(before, "stored_answers_hits_total", { kind: "pages" }) ?? 0;
    let imageBytes = 0;
    for (const event of events.slice(0, CARDS)) {
      const card = await rawRequest(server.url, `/events/${event.id}/og.png`);
      expect(card.status, event.id).toBe(200);
      expect(card.headers["content-type"]).toBe("image/png");
      imageBytes += card.bytes.length;
    }
    // The crawl was bigger than a budget: in one shared store it would have pushed the pages out.
    expect(imageBytes).toBeGreaterThan(MB);

    const afterCrawl = await scrape(server);
    expect(sample(afterCrawl, "stored_answers_evictions_total", { kind: "images" })).toBeGreaterThan(0);
    expect(sample(afterCrawl, "stored_answers_bytes", { kind: "images" })).toBeLessThanOrEqual(MB);
    expect(sample(afterCrawl, "stored_answers_evictions_total", { kind: "pages" })).toBe(0);

    for (const page of pages) expect((await rawRequest(server.url, page)).status, page).toBe(200);
    const after = await scrape(server);
    expect(sample(after, "stored_answers_renders_total", { kind: "pages" })).toBe(rendersBefore);
    expect(sample(after, "stored_answers_hits_total", { kind: "pages" })).toBe(hitsBefore + pages.length);
    expect(sample(after, "stored_answers_renders_total", { kind: "images" })).toBe(CARDS);
  });
});

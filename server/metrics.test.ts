import { mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sample } from "../tests/support/metrics";
import type { BudgetStats } from "./answer-store";
import { createMetrics } from "./metrics";

const budget = (over: Partial<BudgetStats>): BudgetStats => ({
  hits: 0,
  misses: 0,
  renders: 0,
  evictions: 0,
  bytes: 0,
  entries: 0,
  maxBytes: 100,
  ...over,
});

describe("createMetrics", () => {
  it("reads the calendar, the store, the share cards and the saved copy's age when scraped, and counts what passes", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "fc-metrics-")), "events.json");
    writeFileSync(file, "{}");
    const modified = new Date(Date.now() - 90_000);
    utimesSync(file, modified, modified);
    let failures = 2;
    const metrics = createMetrics({
      calendar: () => ({
        source: "ics",
        state: "stale",
        lastSuccessAt: 1_700_000_000_000,
        consecutiveFailures: failures,
        nextAttemptAt: 1_700_000_300_000,
      }),
      savedCopyPath: file,
      store: () => ({
        static: budget({ hits: 5, maxBytes: undefined, bytes: 30 }),
        pages: budget({ hits: 7, renders: 2, bytes: 50 }),
        images: budget({ evictions: 3, misses: 4 }),
        files: { hits: 11, bytes: 900, entries: 5 },
      }),
      shareCards: () => ({ drawn: 6, failed: 1, waiting: 2, hits: 0, misses: 0, evictions: 0, keptBytes: 0, kept: 0, maxBytes: 0 }),
    });
    metrics.calendarRead({ source: "ics", outcome: "ok", events: 3000 });
    metrics.calendarRead({ source: "ics", outcome: "failed" });
    metrics.refused("speculative");
    metrics.responded(429);
    metrics.responded(200);

    const text = await metrics.registry.metrics();
    expect(sample(text, "calendar_reads_total", { source: "ics", outcome: "ok" })).toBe(1);
    expect(sample(text, "calendar_reads_total", { source: "ics", outcome: "failed" })).toBe(1);
    expect(sample(text, "calendar_events")).toBe(3000);
    expect(sample(text, "calendar_state", { state: "stale" })).toBe(1);
    expect(sample(text, "calendar_state", { state: "fresh" })).toBe(0);
    expect(sample(text, "calendar_last_success_timestamp_seconds")).toBe(1_700_000_000);
    expect(sample(text, "calendar_next_attempt_timestamp_seconds")).toBe(1_700_000_300);
    expect(sample(text, "calendar_consecutive_failures")).toBe(2);
    expect(sample(text, "calendar_saved_copy_age_seconds")).toBeGreaterThanOrEqual(89);
    expect(sample(text, "stored_answers_hits_total", { kind: "pages" })).toBe(7);
    expect(sample(text, "stored_answers_hits_total", { kind: "files" })).toBe(11);
    expect(sample(text, "stored_answers_evictions_total", { kind: "images" })).toBe(3);
    expect(sample(text, "stored_answers_misses_total", { kind: "images" })).toBe(4);
    expect(sample(text, "stored_answers_bytes", { kind: "pages" })).toBe(50);
    expect(sample(text, "stored_answers_hits_total", { kind: "static" })).toBe(5);
    expect(sample(text, "stored_answers_bytes", { kind: "static" })).toBe(30);
    // The static pages have no budget: they are a fixed set, never evicted.
    expect(sample(text, "stored_answers_budget_bytes", { kind: "static" })).toBeUndefined();
    expect(sample(text, "stored_answers_budget_bytes", { kind: "images" })).toBe(100);
    expect(sample(text, "share_cards_drawn_total")).toBe(6);
    expect(sample(text, "share_cards_failed_total")).toBe(1);
    expect(sample(text, "share_cards_waiting")).toBe(2);
    expect(sample(text, "http_requests_refused_total", { limit: "speculative" })).toBe(1);
    expect(sample(text, "http_requests_refused_total", { limit: "api" })).toBe(0);
    expect(sample(text, "http_responses_total", { class: "4xx" })).toBe(1);
    expect(sample(text, "http_responses_total", { class: "2xx" })).toBe(1);

    // Read again at the next scrape, not kept from the first.
    failures = 0;
    expect(sample(await metrics.registry.metrics(), "calendar_consecutive_failures")).toBe(0);
  });
});

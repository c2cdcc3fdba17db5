// The metrics for Prometheus (issue 29), through the built server: on a listener of their own
// (METRICS_PORT), never the public port; an exposition that Prometheus's own parser reads and that
// a real Prometheus server scrapes; alerting rules that promtool and Prometheus load, and that fire
// when they should (ops/prometheus/alerts.test.yml).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { suiteClock } from "../support/clock";
import { metricsUrlOf, sample, scrape } from "../support/metrics";
import { documentedScrapeConfig, promtool, startPrometheus, type RunningPrometheus } from "../support/prometheus";
import { rawRequest } from "../support/raw-http";
import { sharedServer } from "../support/shared-server";
import { NO_SOURCE_NO_PROXY } from "../support/environments";
import { startServer, type RunningServer } from "../support/start-server";

const RULES = "ops/prometheus/alerts.yml";
const RULE_TESTS = "ops/prometheus/alerts.test.yml";

describe("the metrics listener", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...NO_SOURCE_NO_PROXY, METRICS_PORT: "0" });
  });
  afterAll(() => server?.stop());

  it("is not on the public port: /metrics there is the site's 404", async () => {
    for (const target of ["/metrics", "/metrics/", "/Metrics"]) {
      const answer = await rawRequest(server.url, target);
      expect(answer.status, target).toBe(404);
      expect(answer.body, target).not.toContain("nodejs_");
    }
  });

  it("listens on loopback and answers /metrics only, never cached", async () => {
    const url = new URL(metricsUrlOf(server));
    expect(url.hostname).toBe("127.0.0.1");
    expect(url.port).not.toBe(new URL(server.url).port);
    const metrics = await fetch(url);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(metrics.headers.get("cache-control")).toBe("no-store");
    expect((await fetch(new URL("/", url))).status).toBe(404);
    expect((await fetch(new URL("/about", url))).status).toBe(404);
  });

  it("exposes Node's metrics and the site's own, which Prometheus's parser reads without a problem of ours", async () => {
    // The calendar, a page and a refusal-free answer, so the counters have something to say.
    expect((await rawRequest(server.url, "/api/calendar/events")).status).toBe(200);
    expect((await rawRequest(server.url, "/")).status).toBe(200);
    const exposition = await scrape(server);
    for (const name of ["nodejs_eventloop_lag_p99_seconds", "nodejs_heap_size_used_bytes", "process_cpu_seconds_total"]) {
      expect(sample(exposition, name), name).toBeGreaterThanOrEqual(0);
    }
    expect(sample(exposition, "calendar_reads_total", { source: "sample", outcome: "ok" })).toBeGreaterThanOrEqual(1);
    expect(sample(exposition, "calendar_events")).toBeGreaterThan(10);
    expect(sample(exposition, "calendar_state", { state: "fresh" })).toBe(1);
    expect(sample(exposition, "calendar_consecutive_failures")).toBe(0);
    // The server's timestamps are on its clock, the run's (tests/support/clock.ts); a second of slack for its rounding.
    const now = suiteClock().now() / 1000;
    expect(sample(exposition, "calendar_last_success_timestamp_seconds")).toBeGreaterThan(now - 600);
    expect(sample(exposition, "calendar_last_success_timestamp_seconds")).toBeLessThanOrEqual(now + 1);
    expect(sample(exposition, "calendar_next_attempt_timestamp_seconds")).toBeGreaterThan(now);
    expect(sample(exposition, "stored_answers_hits_total", { kind: "static" })).toBeGreaterThanOrEqual(1);
    expect(sample(exposition, "stored_answers_renders_total", { kind: "pages" })).toBeGreaterThanOrEqual(1);
    expect(sample(exposition, "stored_answers_budget_bytes", { kind: "pages" })).toBe(64 * 1024 * 1024);
    expect(sample(exposition, "stored_answers_budget_bytes", { kind: "images" })).toBe(32 * 1024 * 1024);
    expect(sample(exposition, "stored_answers_bytes", { kind: "pages" })).toBeGreaterThan(0);
    expect(sample(exposition, "share_cards_waiting")).toBe(0);
    expect(sample(exposition, "http_requests_refused_total", { limit: "pages" })).toBe(0);
    expect(sample(exposition, "http_responses_total", { class: "2xx" })).toBeGreaterThanOrEqual(2);

    // promtool's lint reads the text with Prometheus's parser: a syntax error fails it outright
    // (exit 1); its only complaints may be prom-client's own names (nodejs_active_*_total gauges).
    const { code, output } = await promtool(["check", "metrics"], exposition);
    expect(output).not.toMatch(/error while linting|parsing error/i);
    const complaints = output.split("\n").filter((line) => line.trim() !== "");
    for (const line of complaints) expect(line, "a problem in the site's own metrics").toMatch(/^nodejs_active_\w+_total /);
    expect(code === 0 || code === 3, output).toBe(true);
  });

  describe("scraped by a real Prometheus, with the alerting rules loaded", () => {
    let prometheus: RunningPrometheus;
    beforeAll(async () => {
      prometheus = await startPrometheus(new URL(metricsUrlOf(server)).host, [RULES]);
    });
    afterAll(() => prometheus?.stop());

    it("finds the target up and the site's series in its database, and loads both alerts", async () => {
      type Target = { health: string; lastError: string; scrapeUrl: string };
      const target = await prometheus.until(async () => {
        const { activeTargets } = await prometheus.api<{ activeTargets: Target[] }>("/api/v1/targets");
        return activeTargets.find((candidate) => candidate.health === "up");
      });
      expect(target.scrapeUrl).toBe(metricsUrlOf(server));
      type Vector = { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
      const listed = await prometheus.until(async () => {
        const data = await prometheus.api<Vector>(`/api/v1/query?query=${encodeURIComponent("calendar_events")}`);
        return data.result[0];
      });
      expect(Number(listed.value[1])).toBeGreaterThan(10);
      expect(listed.metric.job).toBe(documentedScrapeConfig("unused").job_name);
      const lag = await prometheus.api<Vector>(`/api/v1/query?query=${encodeURIComponent("nodejs_eventloop_lag_p99_seconds")}`);
      expect(lag.result).toHaveLength(1);

      type Rules = { groups: { rules: { name: string; health: string; type: string }[] }[] };
      const rules = await prometheus.until(async () => {
        const { groups } = await prometheus.api<Rules>("/api/v1/rules");
        const all = groups.flatMap((group) => group.rules);
        // Healthy once evaluated against the scraped series.
        return all.length === 2 && all.every((rule) => rule.health === "ok") ? all : undefined;
      });
      expect(rules.map((rule) => rule.name).sort()).toEqual(["CalendarStale", "EventLoopDelayHigh"]);
      expect(rules.every((rule) => rule.type === "alerting")).toBe(true);
      // Nothing is wrong with this server: neither fires.
      const firing = await prometheus.api<{ alerts: unknown[] }>("/api/v1/alerts");
      expect(firing.alerts).toEqual([]);
    });
  });
});

describe("the alerting rules", () => {
  it("load (promtool check rules) and fire when they should, not before (promtool test rules)", async () => {
    const check = await promtool(["check", "rules", RULES]);
    expect(check.output).toContain("SUCCESS: 2 rules found");
    expect(check.code).toBe(0);
    const tested = await promtool(["test", "rules", RULE_TESTS]);
    expect(tested.output).toContain("SUCCESS");
    expect(tested.code, tested.output).toBe(0);
  });
});

describe("without METRICS_PORT", () => {
  const server = sharedServer();

  it("there is no metrics listener, and /metrics is the site's 404", async () => {
    expect(() => metricsUrlOf(server)).toThrow(/no metrics address/);
    expect((await rawRequest(server.url, "/metrics")).status).toBe(404);
  });
});

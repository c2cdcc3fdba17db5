import { describe, expect, it } from "vitest";
import type { EventsResponse } from "~/events/model";
import { suiteClock } from "../support/clock";
import { isUpcoming } from "../support/event-time";
import { describeReport, validateHtml } from "../support/html-validity";
import { sharedServer } from "../support/shared-server";

// Every page's server HTML is valid HTML (issue 11): what a browser, a crawler or a screen reader
// gets before any script runs. Rules and the reasons for each setting: tests/support/html-validity.ts.
const server = sharedServer();

const PATHS: Array<[path: string, status: number]> = [
  ["/", 200],
  ["/apply", 200],
  ["/about", 200],
  ["/contact", 200],
  ["/events", 200],
  ["/events?tab=past", 200],
  ["/portal", 200],
  ["/this-page-does-not-exist", 404],
];

describe("server HTML", () => {
  it("an archive page is valid HTML (issue 37)", async () => {
    const events = await (await fetch(`${server.url}/events`)).text();
    const path = /href="(\/events\/month\/[^"]+)"/.exec(events)![1]!;
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('class="event-card"');
    const report = await validateHtml(html, path);
    expect(describeReport(report)).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it("an upcoming and a past event's page are valid HTML (issue 13)", async () => {
    const { events } = (await (await fetch(`${server.url}/api/calendar/events`)).json()) as EventsResponse;
    // As the server sorts them, at its now.
    const upcoming = events.find((e) => isUpcoming(e, suiteClock().now()))!;
    const past = events.find((e) => !isUpcoming(e, suiteClock().now()))!;
    for (const id of [upcoming.id, past.id]) {
      const res = await fetch(`${server.url}/events/${id}`);
      expect(res.status).toBe(200);
      const report = await validateHtml(await res.text(), `/events/${id}`);
      expect(describeReport(report)).toEqual([]);
      expect(report.valid).toBe(true);
    }
  });

  it.each(PATHS)("%s is valid HTML", async (path, status) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(status);
    const html = await res.text();
    // The events tabs are checked with their list in them, not a loading or error state.
    if (path.startsWith("/events")) expect(html).toContain('class="event-card"');
    const report = await validateHtml(html, path);
    expect(describeReport(report)).toEqual([]);
    expect(report.valid).toBe(true);
  });
});

// The check itself: each rule that matters here fails on the mistake it is there for.
describe("the HTML check", () => {
  const page = (body: string) =>
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>t</title></head><body>${body}</body></html>`;

  it.each([
    [
      "an <svg> in a <dl>'s group",
      '<dl><div><dt>Where</dt><svg aria-hidden="true" viewBox="0 0 1 1"></svg><dd>Here</dd></div></dl>',
      "site/dl-group-content",
    ],
    [
      "aria-expanded beside a command",
      '<button type="button" command="show-modal" commandfor="m" aria-expanded="false">Menu</button><dialog id="m" aria-label="Menu"></dialog>',
      "site/no-aria-expanded-on-command",
    ],
    ["a heading before the page's <h1>", "<header><h2>Menu</h2></header><main><h1>Page</h1></main>", "site/h1-first-heading"],
    ["an inline style (the CSP blocks it)", '<p style="color: red">x</p>', "no-inline-style"],
    ["a <style> element (the CSP blocks it)", "<style>p { color: red; }</style><p>x</p>", "no-style-tag"],
    ["a duplicate id", '<p id="a">x</p><p id="a">y</p>', "no-dup-id"],
    ["an element where it may not stand", "<ul><div>x</div></ul>", "element-permitted-content"],
  ])("fails on %s", async (_, body, rule) => {
    const report = await validateHtml(page(body));
    expect(report.valid).toBe(false);
    const messages = report.results.flatMap((r) => r.messages);
    expect(messages.map((m) => m.ruleId)).toContain(rule);
    // The rule ran and found the mistake (a rule html-validate cannot find reports under its name too).
    expect(messages.map((m) => m.message).join("\n")).not.toMatch(/was not found/);
  });

  it("passes a valid page written the way React writes it", async () => {
    const body =
      '<dl><div><dt>When</dt><dd><time dateTime="2026-01-01">Jan 1</time></dd></div></dl>' +
      '<form><input type="email" name="e" required="" autoComplete="email" aria-label="Email"/><button type="submit">Send</button></form>' +
      '<a href="/x.ics" download="">Add</a><div id="_R_"></div>';
    const report = await validateHtml(page(body));
    expect(describeReport(report)).toEqual([]);
  });
});

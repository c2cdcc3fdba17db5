// After each calendar read the events answers are prepared for the new version (the real answer
// store, over a renderer the test makes fail): a failure is logged once while it lasts, its recovery
// once, and a version that changes by itself (an event ends) is prepared when it does.
import { describe, expect, it } from "vitest";
import type { EventsOutcome } from "~/events/server/outcome.server";
import { createAnswerStore } from "./answer-store";
import { eventsPreparer } from "./events-preparer";

type Line = { level: "error" | "info"; message: string };

function setup(outcome: () => EventsOutcome) {
  const rendered: string[] = [];
  let status = 200;
  const store = createAnswerStore({
    render: async (url) => {
      rendered.push(url);
      return new Response(`<p>${url}</p>`, { status, headers: { "Content-Type": "text/html" } });
    },
    csp: () => "default-src 'self'",
    secure: () => false,
    eventsOutcome: async () => outcome(),
    budgets: { pages: 1024 * 1024 },
  });
  const lines: Line[] = [];
  const logger = {
    error: (_fields: object, message: string) => void lines.push({ level: "error", message }),
    info: (message: string) => void lines.push({ level: "info", message }),
  };
  const afterRead = eventsPreparer(store, logger as unknown as Parameters<typeof eventsPreparer>[1]);
  return { afterRead, rendered, lines, fail: (failing: boolean) => void (status = failing ? 500 : 200) };
}

const outcome = (version: string, nextChangeAt?: number): EventsOutcome => ({
  ok: true,
  response: { events: [], stale: false },
  json: new TextEncoder().encode("[]"),
  version,
  eventOf: () => undefined,
  hasArchivePage: () => false,
  splitAt: 0,
  ...(nextChangeAt === undefined ? {} : { nextChangeAt }),
});

describe("eventsPreparer", () => {
  it("logs a failed prepare once while it lasts, and once when it works again", async () => {
    let version = "v1";
    const { afterRead, rendered, lines, fail } = setup(() => outcome(version));
    fail(true);
    for (const next of ["v1", "v2", "v3"]) {
      version = next;
      await afterRead();
    }
    expect(rendered).toHaveLength(9);
    fail(false);
    version = "v4";
    await afterRead();
    expect(lines).toEqual([
      { level: "error", message: "preparing the events answers failed: visitors' requests render them meanwhile" },
      { level: "info", message: "the events answers are prepared again after each calendar change" },
    ]);
  });

  it("prepares again when the version changes by itself, at the next event's end", async () => {
    // As the real outcome: the version counts the events ended by now, and names the next end.
    const endsAt = Date.now() + 1_000;
    const { afterRead, rendered } = setup(() => (Date.now() < endsAt ? outcome("v1|ended 0", endsAt) : outcome("v1|ended 1")));
    await afterRead();
    // No read after this one: the timer set for the end prepares the new version.
    await expect.poll(() => rendered.length, { interval: 5, timeout: 5_000 }).toBe(6);
    expect(rendered.slice(3).sort()).toEqual(["/api/calendar/events", "/events", "/events?tab=past"]);
  });
});

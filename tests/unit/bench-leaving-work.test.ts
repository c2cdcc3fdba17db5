import { describe, expect, it } from "vitest";
import { leavingWork, traceEventsOf, type TraceEvent } from "../../scripts/bench/leaving-work.js";

// Chromium's trace events, as a DevTools trace of a click that leaves the page has them (ts and dur in µs).
const LEAVING = { pid: 10, tid: 1 };
const OTHER_PROCESS = { pid: 20, tid: 1 };
const at = (ms: number) => 1_000_000 + ms * 1000;
const dispatch = (type: string, ms: number): TraceEvent => ({
  name: "EventDispatch",
  ph: "X",
  ts: at(ms),
  dur: 100,
  ...LEAVING,
  args: { data: { type } },
});
const recalc = (ms: number, durMs: number, elementCount: number, where = LEAVING): TraceEvent => ({
  name: "UpdateLayoutTree",
  ph: "X",
  ts: at(ms),
  dur: durMs * 1000,
  ...where,
  args: { elementCount },
});
const layout = (ms: number, durMs: number, where = LEAVING): TraceEvent => ({
  name: "Layout",
  ph: "X",
  ts: at(ms),
  dur: durMs * 1000,
  ...where,
});
const task = (ms: number, durMs: number): TraceEvent => ({ name: "RunTask", ph: "X", ts: at(ms), dur: durMs * 1000, ...LEAVING });
const commit = (ms: number, where = LEAVING, isMainFrame = true): TraceEvent => ({
  name: "CommitLoad",
  ph: "X",
  ts: at(ms),
  dur: 500,
  ...where,
  args: { data: { isMainFrame, url: "http://127.0.0.1/events" } },
});

describe("the leaving page's style and layout work, from a trace", () => {
  it("adds the pressing thread's recalculations and layouts from the press to the next document's commit", () => {
    const work = leavingWork([
      recalc(-20, 9, 150), // the hover, before the press
      dispatch("pointerdown", 0),
      dispatch("mousedown", 0.5),
      recalc(1, 0.4, 1),
      layout(2, 1.5),
      task(60, 40), // the next document commits: the page left is hidden, in one task
      recalc(80, 11.6, 159),
      dispatch("pagehide", 92),
      recalc(81, 30, 300, OTHER_PROCESS), // another renderer's work
      commit(95),
      recalc(120, 30, 270), // the next document's own
      layout(150, 15),
    ]);
    expect(work).toEqual({ styleMs: 12, styleElements: 160, atPressStyleMs: 0.4, hidingStyleMs: 11.6, layoutMs: 1.5, commitMs: 95 });
  });

  it("starts at the first press, whichever of pointerdown and mousedown it is, and ends at a main-frame commit in any process", () => {
    const work = leavingWork([
      dispatch("mousedown", 5),
      recalc(6, 2, 3),
      commit(7, LEAVING, false),
      recalc(8, 1, 3),
      commit(40, OTHER_PROCESS),
    ]);
    // No pagehide on this thread (the page left in another process, or torn down later): all of it counts as at the press.
    expect(work).toEqual({ styleMs: 3, styleElements: 6, atPressStyleMs: 3, hidingStyleMs: 0, layoutMs: 0, commitMs: 35 });
  });

  it("has no figure without a press, or when no document commits after it", () => {
    expect(leavingWork([recalc(1, 2, 3), commit(10)])).toBeNull();
    expect(leavingWork([commit(-1), dispatch("pointerdown", 0), recalc(1, 2, 3)])).toBeNull();
  });

  it("reads Playwright's trace buffer, an object with traceEvents or a bare array", () => {
    const events = [dispatch("pointerdown", 0)];
    expect(traceEventsOf(Buffer.from(JSON.stringify({ traceEvents: events })))).toEqual(events);
    expect(traceEventsOf(Buffer.from(JSON.stringify(events)))).toEqual(events);
  });
});

// @ts-check
// What the page being left spends on style and layout between the visitor's press and the next document's commit (issue 39), read from
// a Chromium DevTools trace (the devtools.timeline categories): the figure that names a regression where the click-to-paint time only
// shows one. The press is the first pointerdown (or mousedown) dispatched; the page left is the renderer thread that dispatched it; the
// commit is the first main-frame CommitLoad after the press, in whatever process the next document commits in.

/** The categories a trace needs for leavingWork(). */
export const TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "loading"];

/**
 * One event of Chromium's trace-event format (the fields used here).
 * @typedef {{ name: string, ph: string, ts: number, dur?: number, pid: number, tid: number, args?: { data?: Record<string, unknown>, elementCount?: number } }} TraceEvent
 */
/** @typedef {{ styleMs: number, styleElements: number, layoutMs: number, commitMs: number }} LeavingWork Times in ms, from the press. */

const PRESSES = new Set(["pointerdown", "mousedown"]);
const round1 = (/** @type {number} */ ms) => Math.round(ms * 10) / 10;

/**
 * The leaving page's style recalculation and layout from the press to the next document's commit; null when the trace has no press or no
 * commit after it (the click did not leave the page).
 * @param {TraceEvent[]} events @returns {LeavingWork | null}
 */
export function leavingWork(events) {
  const press = events
    .filter((event) => event.name === "EventDispatch" && PRESSES.has(String(event.args?.data?.type)))
    .reduce((first, event) => (first === null || event.ts < first.ts ? event : first), /** @type {TraceEvent | null} */ (null));
  if (press === null) return null;
  const commit = events
    .filter((event) => event.name === "CommitLoad" && event.ts > press.ts && event.args?.data?.isMainFrame === true)
    .reduce((first, event) => (first === null || event.ts < first.ts ? event : first), /** @type {TraceEvent | null} */ (null));
  if (commit === null) return null;
  // Complete events ("X") on the thread that took the press, begun between the press and the commit.
  const leaving = events.filter(
    (event) => event.ph === "X" && event.pid === press.pid && event.tid === press.tid && event.ts >= press.ts && event.ts < commit.ts,
  );
  const total = (/** @type {string} */ name) =>
    leaving.filter((event) => event.name === name).reduce((sum, event) => sum + (event.dur ?? 0), 0);
  return {
    styleMs: round1(total("UpdateLayoutTree") / 1000),
    styleElements: leaving
      .filter((event) => event.name === "UpdateLayoutTree")
      .reduce((sum, event) => sum + (event.args?.elementCount ?? 0), 0),
    layoutMs: round1(total("Layout") / 1000),
    commitMs: round1((commit.ts - press.ts) / 1000),
  };
}

/** A trace as Playwright's browser.stopTracing() returns it (a JSON buffer), parsed. @param {Buffer} buffer @returns {TraceEvent[]} */
export function traceEventsOf(buffer) {
  const trace = JSON.parse(buffer.toString("utf8"));
  return Array.isArray(trace) ? trace : trace.traceEvents;
}

// @ts-check
// What the page being left spends on style and layout between the visitor's press and the next document's commit (issue 39), read from
// a Chromium DevTools trace (the devtools.timeline categories): the figure that names a regression where the click-to-paint time only
// shows one. The press is the first pointerdown (or mousedown) dispatched; the page left is the renderer thread that dispatched it; the
// commit is the first main-frame CommitLoad after the press, in whatever process the next document commits in. The style figure is split in
// two: at the press (what a pointer, focus or :active state costs, where ours must match its static copy) and as the page is hidden (the
// task that fires its pagehide: Chromium recalculates the whole document as it puts the page in the back/forward cache, a cost every page
// pays alike).

/** The categories a trace needs for leavingWork(). */
export const TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "loading", "toplevel"];

/**
 * One event of Chromium's trace-event format (the fields used here).
 * @typedef {{ name: string, ph: string, ts: number, dur?: number, pid: number, tid: number, args?: { data?: Record<string, unknown>, elementCount?: number } }} TraceEvent
 */
/**
 * Durations in ms; commitMs from the press. styleMs = atPressStyleMs + hidingStyleMs.
 * @typedef {{ styleMs: number, styleElements: number, atPressStyleMs: number, hidingStyleMs: number, layoutMs: number, commitMs: number }} LeavingWork
 */

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
  const pagehide = leaving.find((event) => event.name === "EventDispatch" && event.args?.data?.type === "pagehide");
  const within = (/** @type {TraceEvent} */ task, /** @type {TraceEvent} */ event) =>
    event.ts >= task.ts && event.ts <= task.ts + (task.dur ?? 0);
  const hiding = pagehide && leaving.find((event) => event.name === "RunTask" && within(event, pagehide));
  const recalcs = leaving.filter((event) => event.name === "UpdateLayoutTree");
  const whileHiding = hiding ? recalcs.filter((event) => within(hiding, event)) : [];
  const ms = (/** @type {TraceEvent[]} */ list) => round1(list.reduce((sum, event) => sum + (event.dur ?? 0), 0) / 1000);
  return {
    styleMs: ms(recalcs),
    styleElements: recalcs.reduce((sum, event) => sum + (event.args?.elementCount ?? 0), 0),
    atPressStyleMs: ms(recalcs.filter((event) => !whileHiding.includes(event))),
    hidingStyleMs: ms(whileHiding),
    layoutMs: ms(leaving.filter((event) => event.name === "Layout")),
    commitMs: round1((commit.ts - press.ts) / 1000),
  };
}

/** A trace as Playwright's browser.stopTracing() returns it (a JSON buffer), parsed. @param {Buffer} buffer @returns {TraceEvent[]} */
export function traceEventsOf(buffer) {
  const trace = JSON.parse(buffer.toString("utf8"));
  return Array.isArray(trace) ? trace : trace.traceEvents;
}

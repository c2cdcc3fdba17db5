// What the flows need of a browser, the same in WebKitGTK (WebDriver classic) and Firefox (WebDriver
// BiDi): real pointer clicks and key presses, script in the page, screenshots. Each engine's file
// says how it gets there (webkit.ts, firefox.ts).
import { waitUntil } from "../../support/wait";

/** The width the suite checks: a phone's (an iPhone's is 375 CSS px, Playwright's PHONE too). */
export const PHONE = { width: 375, height: 812 } as const;

export type Key = "Tab" | "Enter" | "Escape" | "F8" | "Shift";

export type Engine = {
  /** Short name, as in the test files' names: "webkit", "firefox". */
  readonly name: string;
  /** The engine and its version, e.g. "WebKitGTK 2.50.6 (MiniBrowser)". */
  readonly version: string;
  /** Loads a page of the site (a path) and waits for its load event; the problem collector is in the page after it. */
  goto(path: string): Promise<void>;
  /** Runs a self-contained function in the page (it is serialised: no closures) and returns its (awaited) result. */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>;
  /** A real pointer click in the middle of the first element matching a CSS selector (scrolled into view first). */
  click(selector: string): Promise<void>;
  /** A real pointer click at a point of the window (CSS px from its top left). */
  clickAt(x: number, y: number): Promise<void>;
  /** A real key press (down, up) to whatever has the focus. */
  press(key: Key): Promise<void>;
  /** Saves a PNG of what the viewport shows. */
  screenshot(file: string): Promise<void>;
  /** Script problems the engine itself reported since the last call (Firefox: console and uncaught errors over BiDi). */
  takeEngineProblems(): Promise<string[]>;
  /** Requests that tried to leave the machine since the last call (all refused: support/deny-proxy.ts). */
  takeBlocked(): string[];
  close(): Promise<void>;
};

/**
 * Waits until the element would take a tap at its middle (nothing over it: a drawer sliding out keeps
 * its backdrop over the page for a moment), then clicks it there, as Playwright's actionability checks do.
 */
export async function tap(engine: Engine, selector: string): Promise<void> {
  await waitFor(engine, `${selector} can be tapped`, hittable, selector);
  await engine.click(selector);
}

/** Runs in the page: true if the element is there and is what a tap at its middle hits (scrolled into view first), else why not. */
function hittable(selector: string): true | string {
  const el = document.querySelector(selector);
  if (!el) return "no element matches";
  el.scrollIntoView({ block: "nearest", inline: "nearest" });
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return "it has no box (hidden)";
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (hit && el.contains(hit)) return true;
  return `a tap there hits <${hit?.tagName.toLowerCase()} class="${hit?.getAttribute("class") ?? ""}">`;
}

/** Polls a condition in the page until it returns true; fails naming it and the last value seen (a reason, say). */
export async function waitFor<A extends unknown[]>(engine: Engine, what: string, fn: (...args: A) => unknown, ...args: A): Promise<void> {
  let last: unknown;
  await waitUntil(async () => (last = await engine.evaluate(fn, ...args)) === true, {
    timeoutMs: WAIT_MS,
    message: () => `[${engine.name}] ${what}: not within ${WAIT_MS} ms (last: ${JSON.stringify(last)})`,
  });
}

// The same 10 s as the Chromium tests' longest waits (first-interaction.spec.ts): the first hydration
// of a run loads ~130 KB of script into a cold engine, on a 2-core machine shared with other suites.
const WAIT_MS = 10_000;

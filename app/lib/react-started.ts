// The site's own signal that React has the page. The client entry sets it right after hydrateRoot: from then on React
// answers every event on the page (a press on a part not yet hydrated hydrates it first), so the scripts that act
// before React does (events/tab-switch.ts) leave events to it. Never a framework's private global: a minor update may
// rename one without a word, and a script reading it would then go on acting beside React.

/** The window property the flag is; the scripts serialised with toString() are given it as an argument. */
export const REACT_STARTED_FLAG = "__siteReactStarted";

/** Raised by app/entry.client.tsx once hydrateRoot has run. */
export function markReactStarted(): void {
  (window as unknown as Record<string, boolean>)[REACT_STARTED_FLAG] = true;
}
